package blob_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"testing"
	"time"

	"prima/internal/platform/blob"
)

// The worked example in docs/architecture.md ("Blobs and signed URLs"),
// recomputed here from the written rules with nothing but the standard
// library, as a CDN edge would, and compared with what the Signer makes.
func TestSignatureVectorMatchesDocs(t *testing.T) {
	const secret = "example-secret-0123456789"
	const exp = int64(1800000000)
	s, err := blob.NewSigner(secret)
	if err != nil {
		t.Fatal(err)
	}
	blob.SetClock(s, nil, func() time.Time { return time.Unix(exp-3600, 0) })

	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte("prima-media-key"))
	mediaKey := m.Sum(nil)
	sum := sha256.Sum256(mediaKey)
	kid := base64.RawURLEncoding.EncodeToString(sum[:])[:6]
	sig := func(scope string) string {
		m := hmac.New(sha256.New, mediaKey)
		m.Write([]byte("prima-media-v1\n" + kid + "\n1800000000\n" + scope))
		return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
	}

	folder, err := s.FolderURL("videos/12/hls/", "videos/12/hls/master.m3u8", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if want := "/media/s/" + kid + ".1800000000.3." + sig("videos/12/hls/") + "/videos/12/hls/master.m3u8"; folder != want {
		t.Fatalf("folder URL\n got %s\nwant %s", folder, want)
	}
	exact, _ := s.URL("videos/12/full.mp4", time.Hour)
	if want := "/media/s/" + kid + ".1800000000.0." + sig("videos/12/full.mp4") + "/videos/12/full.mp4"; exact != want {
		t.Fatalf("exact URL\n got %s\nwant %s", exact, want)
	}
	// The values printed in the docs.
	const docKid, docFolder, docExact = "cMY_8L", "/media/s/cMY_8L.1800000000.3.hjUiDrVSHy73gfVLXQA2CQ7LJPGmFW29l7YMDv9JTps/videos/12/hls/master.m3u8", "/media/s/cMY_8L.1800000000.0.As-TtNWP8wWhM6s6FACqw0sYwbqoxJcpCKt5QUAPm0Y/videos/12/full.mp4"
	if kid != docKid || folder != docFolder || exact != docExact {
		t.Logf("kid %s\nfolder %s\nexact %s", kid, folder, exact)
		t.Fatal("docs/architecture.md's example is out of date")
	}
}
