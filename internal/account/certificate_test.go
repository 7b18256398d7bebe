package account

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"image/png"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/qrcode"

	"prima/internal/apitest"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/platform/httpx"
)

const testSecret = "test-secret-0123456789abcdef"

func newCertService(t *testing.T, d *db.DB) *Service {
	t.Helper()
	s, _ := newTestService(t, d)
	s.SetCertificateSecret(testSecret)
	return s
}

// certLink is the QR content the web app encodes (web/src/features/account/certificate.ts).
func certLink(c Certificate) string {
	return "https://app.example/mine/login#uid=" + fmtInt(c.UID) + "&qrCnt=" + c.QrCnt
}

func fmtInt(n int64) string { return strconv.FormatInt(n, 10) }

func certLogin(s *Service, c Certificate, uid int64, dev int, ip string) (Login, error) {
	return s.CertificateLogin(context.Background(), CertLoginInput{DevID: devID(dev), SysType: "ios", QrCnt: c.QrCnt, UID: uid, IP: ip})
}

func TestCertificateStableResetAndLogin(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s := newCertService(t, d)
		ctx := context.Background()
		g := guest(t, s, devID(1))
		uid := g.User.ID
		first, err := s.Certificate(ctx, uid)
		if err != nil {
			t.Fatal(err)
		}
		again, err := s.Certificate(ctx, uid)
		if err != nil || again != first || first.UID != uid || len(first.QrCnt) != qrCntChars {
			t.Fatalf("second GET = %+v (%v), want the same as %+v", again, err, first)
		}
		// The credential is not in the table: only its hash and the seed.
		var seed, hash string
		if err := d.QueryRow(ctx, `SELECT seed, hash FROM account_certificates WHERE user_id = ?`, uid).Scan(&seed, &hash); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(seed+hash, first.QrCnt) {
			t.Fatal("the credential is stored in clear")
		}

		// A fresh device signs in as the same user and is bound to them.
		l, err := certLogin(s, first, uid, 2, "10.0.0.2")
		if err != nil || l.User.ID != uid || l.Token == "" {
			t.Fatalf("certificate login = %+v, %v", l, err)
		}
		if sess, err := s.Authenticate(ctx, l.Token); err != nil || sess.UserID != uid || sess.DevID != devID(2) {
			t.Fatalf("session = %+v, %v", sess, err)
		}
		if owner, _, err := deviceUser(ctx, d, devID(2)); err != nil || owner != uid {
			t.Fatalf("device 2 owner = %d, %v", owner, err)
		}
		// The guest login of that device now resumes the same account.
		if again := guest(t, s, devID(2)); again.User.ID != uid {
			t.Fatalf("guest login after certificate = uid %d, want %d", again.User.ID, uid)
		}

		reset, err := s.ResetCertificate(ctx, uid)
		if err != nil || reset.QrCnt == first.QrCnt {
			t.Fatalf("reset = %+v, %v", reset, err)
		}
		sessions := count(t, d, "sessions")
		if _, err := certLogin(s, first, uid, 3, "10.0.0.3"); !errors.Is(err, ErrCertificateInvalid) {
			t.Fatalf("revoked certificate: err = %v", err)
		}
		if n := count(t, d, "sessions"); n != sessions {
			t.Fatalf("a refused login made a session (%d -> %d)", sessions, n)
		}
		if _, _, err := deviceUser(ctx, d, devID(3)); !errors.Is(err, db.ErrNotFound) {
			t.Fatalf("a refused login bound device 3: %v", err)
		}
		if l, err := certLogin(s, reset, uid, 3, "10.0.0.3"); err != nil || l.User.ID != uid {
			t.Fatalf("new certificate = %+v, %v", l, err)
		}
		if cur, err := s.Certificate(ctx, uid); err != nil || cur.QrCnt != reset.QrCnt {
			t.Fatalf("GET after reset = %+v, %v", cur, err)
		}
	})
}

func TestCertificateRefusals(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s := newCertService(t, d)
		ctx := context.Background()
		a := guest(t, s, devID(1)).User.ID
		b := guest(t, s, devID(2)).User.ID
		ca, err := s.Certificate(ctx, a)
		if err != nil {
			t.Fatal(err)
		}
		altered := ca
		last := altered.QrCnt[len(altered.QrCnt)-2]
		swap := byte('A')
		if last == 'A' {
			swap = 'B'
		}
		altered.QrCnt = altered.QrCnt[:len(altered.QrCnt)-2] + string(swap) + altered.QrCnt[len(altered.QrCnt)-1:]
		before := count(t, d, "sessions")
		for name, tc := range map[string]struct {
			c   Certificate
			uid int64
		}{
			"another user's uid": {ca, b},
			"altered":            {altered, a},
			"short":              {Certificate{QrCnt: "abc"}, a},
			"not base64":         {Certificate{QrCnt: strings.Repeat("*", qrCntChars)}, a},
		} {
			if _, err := certLogin(s, tc.c, tc.uid, 3, "10.0.1."+fmtInt(int64(len(name)))); !errors.Is(err, ErrCertificateInvalid) {
				t.Errorf("%s: err = %v, want ErrCertificateInvalid", name, err)
			}
		}
		if _, err := certLogin(s, ca, 0, 3, "10.0.2.1"); err == nil {
			t.Error("no uid: signed in")
		} else {
			wantField(t, err, "uid")
		}
		if _, err := s.CertificateLogin(ctx, CertLoginInput{DevID: "bad", SysType: "ios", QrCnt: ca.QrCnt, UID: a}); err == nil {
			t.Error("bad devID: signed in")
		}
		if n := count(t, d, "sessions"); n != before {
			t.Fatalf("refused logins made sessions (%d -> %d)", before, n)
		}
		if owner, _, _ := deviceUser(ctx, d, devID(2)); owner != b {
			t.Fatalf("device 2 moved to %d", owner)
		}
	})
}

// An address that keeps presenting bad certificates waits, even with a
// good one; another address is not slowed.
func TestCertificateFailureLimit(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s := newCertService(t, d)
		ctx := context.Background()
		uid := guest(t, s, devID(1)).User.ID
		c, err := s.Certificate(ctx, uid)
		if err != nil {
			t.Fatal(err)
		}
		bad := Certificate{QrCnt: strings.Repeat("A", qrCntChars)}
		for i := 0; i < DefaultCertLimits.FailPerIP.N; i++ {
			if _, err := certLogin(s, bad, uid, 2, "10.9.9.9"); !errors.Is(err, ErrCertificateInvalid) {
				t.Fatalf("attempt %d: %v", i, err)
			}
		}
		if _, err := certLogin(s, c, uid, 2, "10.9.9.9"); !errors.Is(err, ErrRateLimited) {
			t.Fatalf("after the failures: err = %v, want rate limited", err)
		}
		if err := s.CheckCertificate(ctx, uid, c.QrCnt, "10.9.9.9"); !errors.Is(err, ErrRateLimited) {
			t.Fatalf("extract check after the failures: err = %v", err)
		}
		if _, err := certLogin(s, c, uid, 2, "10.9.9.10"); err != nil {
			t.Fatalf("another address: %v", err)
		}
	})
}

// Parallel first GETs issue one certificate; parallel resets leave one live.
func TestCertificateParallel(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s := newCertService(t, d)
		ctx := context.Background()
		uid := guest(t, s, devID(1)).User.ID
		run := func(fn func() (Certificate, error)) []string {
			var (
				wg  sync.WaitGroup
				mu  sync.Mutex
				got []string
			)
			for i := 0; i < 4; i++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					c, err := fn()
					if err != nil {
						t.Error(err)
						return
					}
					mu.Lock()
					got = append(got, c.QrCnt)
					mu.Unlock()
				}()
			}
			wg.Wait()
			return got
		}
		got := run(func() (Certificate, error) { return s.Certificate(ctx, uid) })
		for _, q := range got {
			if q != got[0] {
				t.Fatalf("parallel GETs answered different certificates: %v", got)
			}
		}
		run(func() (Certificate, error) { return s.ResetCertificate(ctx, uid) })
		var live int
		if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM account_certificates WHERE user_id = ? AND revoked_at = 0`, uid).Scan(&live); err != nil || live != 1 {
			t.Fatalf("%d live certificates after parallel resets (%v)", live, err)
		}
	})
}

// After a secret rotation the previous secret still shows the same
// certificate; once it is dropped, the next GET issues a new one.
func TestCertificateSecretRotation(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s := newCertService(t, d)
		ctx := context.Background()
		uid := guest(t, s, devID(1)).User.ID
		c, err := s.Certificate(ctx, uid)
		if err != nil {
			t.Fatal(err)
		}
		s.SetCertificateSecret("rotated-secret-0123456789", testSecret)
		if again, err := s.Certificate(ctx, uid); err != nil || again.QrCnt != c.QrCnt {
			t.Fatalf("with the previous secret: %+v, %v", again, err)
		}
		s.SetCertificateSecret("rotated-secret-0123456789")
		fresh, err := s.Certificate(ctx, uid)
		if err != nil || fresh.QrCnt == c.QrCnt {
			t.Fatalf("without the old secret: %+v, %v", fresh, err)
		}
		if _, err := certLogin(s, fresh, uid, 2, "10.0.0.2"); err != nil {
			t.Fatalf("the reissued certificate: %v", err)
		}
	})
}

func TestParseCertificateLink(t *testing.T) {
	q := strings.Repeat("a", qrCntChars)
	for _, tc := range []struct {
		in  string
		uid int64
		ok  bool
	}{
		{"https://app.example/mine/login#uid=7&qrCnt=" + q, 7, true},
		{"http://10.0.0.1:8080/mine/login?uid=7&qrCnt=" + q, 7, true},
		{"  https://x.example/mine/login/#qrCnt=" + q + "&uid=12  ", 12, true},
		{"https://app.example/mine/register#uid=7&qrCnt=" + q, 0, false},
		{"https://app.example/mine/login#uid=-7&qrCnt=" + q, 0, false},
		{"https://app.example/mine/login#uid=x&qrCnt=" + q, 0, false},
		{"https://app.example/mine/login#uid=7&qrCnt=" + q[1:], 0, false},
		{"https://app.example/mine/login#uid=7", 0, false},
		{"hello world", 0, false},
		{"", 0, false},
	} {
		uid, qr, ok := ParseCertificateLink(tc.in)
		if ok != tc.ok || uid != tc.uid || (ok && qr != q) {
			t.Errorf("ParseCertificateLink(%q) = %d, %q, %v", tc.in, uid, qr, ok)
		}
	}
}

// qrPNG renders content as a QR code inside a larger white picture with a
// dark caption bar, as the saved certificate looks.
func qrPicture(t *testing.T, content string, size int) image.Image {
	t.Helper()
	m, err := qrcode.NewQRCodeWriter().Encode(content, gozxing.BarcodeFormat_QR_CODE, size, size, nil)
	if err != nil {
		t.Fatal(err)
	}
	img := image.NewRGBA(image.Rect(0, 0, size+80, size+160))
	draw.Draw(img, img.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	draw.Draw(img, image.Rect(40, 40, 40+size, 40+size), m, image.Point{}, draw.Src)
	draw.Draw(img, image.Rect(40, size+80, size+40, size+120), image.NewUniform(color.Gray{60}), image.Point{}, draw.Src)
	return img
}

func encodePNG(t *testing.T, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func multipartBody(t *testing.T, name string, data []byte) (string, string) {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	f, err := w.CreateFormFile("file", name)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(data)
	w.Close()
	return b.String(), w.FormDataContentType()
}

func newCertAPI(t *testing.T, d *db.DB) (*Service, http.Handler) {
	t.Helper()
	s := newCertService(t, d)
	h := NewHandler(s)
	mux := httpx.NewAPIMux()
	mux.Handle("POST /api/app/mine/login", httpx.Handler(h.GuestLogin))
	mux.Handle("GET /api/app/mine/certificate/qr", h.RequireUser(h.Certificate))
	mux.Handle("POST /api/app/mine/certificate/reset", h.RequireUser(h.ResetCertificate))
	mux.Handle("POST /api/app/mine/qrcode/extract", httpx.Multipart(httpx.Handler(h.ExtractQR)))
	return s, h.Authenticate(mux)
}

func TestCertificateAPI(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s, api := newCertAPI(t, d)
		ctx := context.Background()
		tokA := apitest.GuestLogin(t, api, apitest.DevID(1))
		sessA, _ := s.Authenticate(ctx, tokA)
		uidB := guest(t, s, devID(2)).User.ID

		apitest.Scenario{Name: "no token", URL: "/api/app/mine/certificate/qr", ExpectedStatus: 401}.Run(t, api)
		res := apitest.Scenario{Name: "get", URL: "/api/app/mine/certificate/qr", Token: tokA, ExpectedStatus: 200}.Run(t, api)
		cert := apitest.Data[Certificate](t, res)
		if cert.UID != sessA.UserID || len(cert.QrCnt) != qrCntChars || res.Header().Get("Cache-Control") != "no-store" {
			t.Fatalf("certificate = %+v", cert)
		}
		extract := func(name string, data []byte, ip string, status int, tip string) *apitest.Response {
			body, ct := multipartBody(t, name, data)
			return apitest.Scenario{Name: "extract " + name, Method: "POST", URL: "/api/app/mine/qrcode/extract", Body: body,
				Headers: map[string]string{"Content-Type": ct}, RemoteAddr: ip + ":1000", ExpectedStatus: status, ExpectedTip: tip}.Run(t, api)
		}
		// A real picture of the certificate, PNG and JPEG.
		good := encodePNG(t, qrPicture(t, certLink(cert), 330))
		got := apitest.Data[map[string]any](t, extract("cert.png", good, "10.1.0.1", 200, ""))
		if got["uid"] != float64(cert.UID) || got["qrCnt"] != cert.QrCnt {
			t.Fatalf("extract = %v", got)
		}
		var jb bytes.Buffer
		if err := jpeg.Encode(&jb, qrPicture(t, certLink(cert), 400), &jpeg.Options{Quality: 80}); err != nil {
			t.Fatal(err)
		}
		extract("photo.jpg", jb.Bytes(), "10.1.0.2", 200, "")
		// A large photo is scanned scaled down first and still found.
		big := image.NewRGBA(image.Rect(0, 0, 3000, 2200))
		draw.Draw(big, big.Bounds(), image.NewUniform(color.Gray{200}), image.Point{}, draw.Src)
		draw.Draw(big, image.Rect(1000, 600, 1000+560, 600+720), qrPicture(t, certLink(cert), 480), image.Point{}, draw.Src)
		extract("big.png", encodePNG(t, big), "10.1.0.3", 200, "")

		// Bad input: each a clear 4xx.
		extract("garbage.png", bytes.Repeat([]byte{0x42}, 2048), "10.2.0.1", 415, "PNG")
		extract("notes.png", []byte("this is a text file named .png\n"), "10.2.0.2", 415, "")
		heic := append([]byte{0, 0, 0, 24}, []byte("ftypheic\x00\x00\x00\x00mif1heic")...)
		extract("IMG_0001.HEIC", heic, "10.2.0.3", 415, "HEIC")
		extract("empty.png", nil, "10.2.0.4", 400, "")
		huge := append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{0}, QRMaxBytes+10)...)
		extract("huge.png", huge, "10.2.0.5", 413, "")
		extract("wide.png", encodePNG(t, image.NewGray(image.Rect(0, 0, qrMaxSide+1, 4))), "10.2.0.6", 422, "尺寸")
		extract("truncated.png", good[:len(good)/2], "10.2.0.7", 422, "")
		extract("blank.png", encodePNG(t, image.NewGray(image.Rect(0, 0, 300, 300))), "10.2.0.8", 422, tipCertNotFound)
		extract("other.png", encodePNG(t, qrPicture(t, "https://example.com/hello", 300)), "10.2.0.9", 422, tipCertNotFound)
		// Another user's uid on A's credential: refused like a revoked one.
		forged := "https://app.example/mine/login#uid=" + fmtInt(uidB) + "&qrCnt=" + cert.QrCnt
		extract("forged.png", encodePNG(t, qrPicture(t, forged, 330)), "10.2.0.10", 401, tipCertInvalid)
		apitest.Scenario{Name: "extract as JSON", Method: "POST", URL: "/api/app/mine/qrcode/extract", Body: `{}`, ExpectedStatus: 415}.Run(t, api)

		// Login with the extracted credential, without a token.
		login := func(name string, uid int64, qr string, status int) *apitest.Response {
			body := `{"devID":"` + apitest.DevID(9) + `","sysType":"ios","cutInfos":"","uid":` + fmtInt(uid) + `,"qrCnt":"` + qr + `"}`
			return apitest.Scenario{Name: name, Method: "POST", URL: "/api/app/mine/login", Body: body, RemoteAddr: "10.3.0.1:1000", ExpectedStatus: status}.Run(t, api)
		}
		res = login("certificate login", cert.UID, cert.QrCnt, 200)
		reply := apitest.Data[struct {
			Token string `json:"token"`
			User  struct {
				UID int64 `json:"uid"`
			} `json:"user"`
		}](t, res)
		if reply.User.UID != cert.UID || reply.Token == "" || reply.Token == tokA {
			t.Fatalf("login reply = %+v", reply)
		}
		login("other user's uid", uidB, cert.QrCnt, 401)

		// Reset: the old picture and the old credential are refused.
		res = apitest.Scenario{Name: "reset", Method: "POST", URL: "/api/app/mine/certificate/reset", Token: tokA, ExpectedStatus: 200}.Run(t, api)
		if next := apitest.Data[Certificate](t, res); next.QrCnt == cert.QrCnt || next.UID != cert.UID {
			t.Fatalf("reset = %+v", next)
		}
		apitest.Scenario{Name: "reset without token", Method: "POST", URL: "/api/app/mine/certificate/reset", ExpectedStatus: 401}.Run(t, api)
		extract("old.png", good, "10.4.0.1", 401, tipCertInvalid)
		login("revoked", cert.UID, cert.QrCnt, 401)
	})
}

// Operators sign in with their password only: no certificate is shown to
// them, and one issued before a promotion no longer signs in.
func TestCertificateNotForOperators(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s := newCertService(t, d)
		ctx := context.Background()
		uid := guest(t, s, devID(1)).User.ID
		c, err := s.Certificate(ctx, uid)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := d.Exec(ctx, `UPDATE users SET role = 'operator' WHERE id = ?`, uid); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Certificate(ctx, uid); !errors.Is(err, ErrCertificateOperator) {
			t.Fatalf("GET for an operator: %v", err)
		}
		if _, err := s.ResetCertificate(ctx, uid); !errors.Is(err, ErrCertificateOperator) {
			t.Fatalf("reset for an operator: %v", err)
		}
		before := count(t, d, "sessions")
		if _, err := certLogin(s, c, uid, 2, "10.0.0.2"); !errors.Is(err, ErrCertificateInvalid) {
			t.Fatalf("an operator's old certificate: %v", err)
		}
		if n := count(t, d, "sessions"); n != before {
			t.Fatal("a refused login made a session")
		}
	})
}
