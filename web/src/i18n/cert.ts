// Strings of the account certificate (features/account: AccountCodePage
// and the certificate login on LoginPage). Kept apart from zh-CN.ts so work on
// other features does not edit the same lines; en must hold exactly these keys.
export const certZhCN = {
  'cert.title': '账号凭证',
  'cert.idLine': '账号ID：{uid}',
  'cert.issued': '生成于 {date}',
  'cert.pictureHint': '请妥善保存，凭此图可登录账号，切勿泄露',
  'cert.alt': '账号凭证二维码，账号ID {uid}',
  'cert.intro': '游客账号与设备绑定。换手机、清除浏览器数据后，在登录页上传这张凭证图片，即可找回当前账号。',
  'cert.introRegistered': '换手机或忘记密码时，在登录页上传这张凭证图片，无需密码即可登录当前账号。',
  'cert.longPress': '长按图片可保存到相册',
  'cert.save': '保存到相册',
  'cert.download': '下载图片',
  'cert.saved': '已保存',
  'cert.saveFailed': '保存失败，请长按图片保存',
  'cert.renderFailed': '凭证图片生成失败',
  'cert.safety': '凭证等同于账号密码：任何拿到这张图片的人都能登录你的账号。如果图片可能已泄露，请立即重置。',
  'cert.reset': '重置凭证',
  'cert.resetConfirm': '重置账号凭证？',
  'cert.resetConfirmHint': '重置后，之前保存的凭证图片和链接将全部失效，请保存新的凭证。',
  'cert.resetDone': '凭证已重置，请重新保存',
  'cert.signIn': '请先登录',

  'cert.login.or': '或',
  'cert.login.pick': '账号凭证登录',
  'cert.login.pickHint': '上传之前保存的账号凭证图片',
  'cert.login.reading': '正在识别凭证…',
  'cert.login.found': '识别到账号',
  'cert.login.foundLink': '链接中的账号凭证',
  'cert.login.uid': '账号ID {uid}',
  'cert.login.switchHint': '登录后，本设备将切换到该账号',
  'cert.login.confirm': '登录此账号',
  'cert.login.cancel': '取消',
  'cert.login.success': '登录成功',
  'cert.login.failed': '登录失败，请重试',
  'cert.login.readFailed': '识别失败，请重试',
  'cert.login.badLink': '链接中的账号凭证无效',
  'cert.login.tooLarge': '图片太大（不超过 5MB）',
  'cert.login.notImage': '请选择图片文件',
  'cert.login.empty': '图片是空的',
}

export type CertKey = keyof typeof certZhCN
