package account

import (
	"bytes"
	"errors"
	"image"
	_ "image/gif" // registered decoders: the formats a saved picture may be
	_ "image/jpeg"
	_ "image/png"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/qrcode"
	xdraw "golang.org/x/image/draw"
	_ "golang.org/x/image/webp"
)

// Limits of a picture uploaded to qrcode/extract. A saved certificate is a
// few hundred KB; a photo of a screen a few MB. The pixel bound is checked
// from the header before decoding, so a small file that claims a huge
// canvas (a decompression bomb) costs nothing.
const (
	QRMaxBytes  = 5 << 20
	qrMaxSide   = 8000
	qrMaxPixels = 24_000_000
	// qrScanSide: larger pictures are first scanned scaled down to this
	// longest side (a QR code filling a fraction of a phone photo is still
	// hundreds of pixels there), which is much faster; the full size is
	// tried only when that finds nothing.
	qrScanSide = 1600
)

var (
	errQRFormat   = errors.New("not a PNG, JPEG, GIF or WebP picture")
	errQRHEIC     = errors.New("HEIC/HEIF picture, which cannot be decoded here")
	errQRTooBig   = errors.New("picture dimensions over the limit")
	errQRBroken   = errors.New("picture cannot be decoded")
	errQRNotFound = errors.New("no QR code found")
)

// sniffQR names the picture's format from its bytes (never its name or the
// client's content type).
func sniffQR(b []byte) error {
	switch {
	case bytes.HasPrefix(b, []byte{0xFF, 0xD8, 0xFF}),
		bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")),
		bytes.HasPrefix(b, []byte("GIF87a")), bytes.HasPrefix(b, []byte("GIF89a")),
		len(b) >= 12 && bytes.Equal(b[:4], []byte("RIFF")) && bytes.Equal(b[8:12], []byte("WEBP")):
		return nil
	case len(b) >= 12 && bytes.Equal(b[4:8], []byte("ftyp")):
		switch string(b[8:12]) {
		case "heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1", "avif":
			return errQRHEIC
		}
	}
	return errQRFormat
}

// DecodeQR finds a QR code in a picture and returns its text.
func DecodeQR(data []byte) (string, error) {
	if err := sniffQR(data); err != nil {
		return "", err
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return "", errQRBroken
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > qrMaxSide || cfg.Height > qrMaxSide || cfg.Width*cfg.Height > qrMaxPixels {
		return "", errQRTooBig
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return "", errQRBroken
	}
	b := img.Bounds()
	if side := max(b.Dx(), b.Dy()); side > qrScanSide {
		w, h := b.Dx()*qrScanSide/side, b.Dy()*qrScanSide/side
		small := image.NewGray(image.Rect(0, 0, max(w, 1), max(h, 1)))
		xdraw.ApproxBiLinear.Scale(small, small.Bounds(), img, b, xdraw.Src, nil)
		if text, err := scanQR(small); err == nil {
			return text, nil
		}
	}
	return scanQR(img)
}

func scanQR(img image.Image) (string, error) {
	bmp, err := gozxing.NewBinaryBitmapFromImage(img)
	if err != nil {
		return "", errQRNotFound
	}
	hints := map[gozxing.DecodeHintType]any{gozxing.DecodeHintType_TRY_HARDER: true}
	res, err := qrcode.NewQRCodeReader().Decode(bmp, hints)
	if err != nil {
		return "", errQRNotFound
	}
	return res.GetText(), nil
}
