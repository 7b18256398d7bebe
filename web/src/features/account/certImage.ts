// Draws the certificate picture the user saves: the QR code of the link
// with a white margin (the quiet zone a scanner needs, on any theme), a
// title, the account id and a warning, as one PNG data URL. The picture is
// always dark on white: it must scan from Photos whatever the app's theme.
import QRCode from 'qrcode'

export interface CertPictureText {
  title: string
  idLine: string
  hint: string
  issued: string
}

const W = 640
const QR = 480
const FONT = '-apple-system, BlinkMacSystemFont, "PingFang SC", "Helvetica Neue", "Noto Sans CJK SC", sans-serif'

export async function renderCertificatePicture(link: string, text: CertPictureText): Promise<string> {
  const qr = document.createElement('canvas')
  await QRCode.toCanvas(qr, link, { errorCorrectionLevel: 'M', margin: 0, width: QR, color: { dark: '#000000', light: '#ffffff' } })
  const H = 64 + 40 + 32 + QR + 40 + 36 + 30 + 28 + 56
  const c = document.createElement('canvas')
  c.width = W
  c.height = H
  const g = c.getContext('2d')
  if (!g) throw new Error('no 2d canvas')
  g.fillStyle = '#ffffff'
  g.fillRect(0, 0, W, H)
  g.textAlign = 'center'
  g.textBaseline = 'alphabetic'
  let y = 64 + 32
  g.fillStyle = '#111111'
  g.font = `600 34px ${FONT}`
  g.fillText(text.title, W / 2, y)
  y += 32
  g.drawImage(qr, (W - QR) / 2, y, QR, QR)
  y += QR + 40 + 28
  g.font = `600 30px ${FONT}`
  g.fillText(text.idLine, W / 2, y)
  y += 38
  g.fillStyle = '#c62828'
  g.font = `22px ${FONT}`
  g.fillText(text.hint, W / 2, y)
  y += 30
  g.fillStyle = '#888888'
  g.font = `20px ${FONT}`
  g.fillText(text.issued, W / 2, y)
  return c.toDataURL('image/png')
}

// dataURLToFile turns the picture into a File for the share sheet
// (decoded here rather than fetched: the CSP's connect-src has no data:).
export function dataURLToFile(dataURL: string, name: string): File {
  const b64 = dataURL.slice(dataURL.indexOf(',') + 1)
  const bin = atob(b64)
  const bytes = new Uint8Array(bin.length)
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i)
  return new File([bytes], name, { type: 'image/png' })
}
