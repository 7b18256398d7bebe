package media_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"prima/internal/account"
	"prima/internal/app/apptest"
	"prima/internal/media"
)

// An exported picture imports as a new asset in its own folder with the
// same variants and placeholder; a folder that is not a whole export is
// refused and leaves no row and no blob.
func TestExportImport(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		ctx := context.Background()
		l, err := s.App.Account.GuestLogin(ctx, account.GuestLoginInput{DevID: "abcdefghijklmnop1772366400000", SysType: "ios"})
		if err != nil {
			t.Fatal(err)
		}
		src := filepath.Join(t.TempDir(), "p.png")
		if err := os.WriteFile(src, pngOf(t, 200, 120), 0o600); err != nil {
			t.Fatal(err)
		}
		fi, _ := os.Stat(src)
		orig, err := s.App.Uploads.Upload(ctx, l.User.ID, src, fi.Size())
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(t.TempDir(), "export")
		if err := s.App.Uploads.Export(ctx, orig.ID, dir); err != nil {
			t.Fatal(err)
		}
		copyOf, err := s.App.Uploads.Import(ctx, l.User.ID, os.DirFS(dir))
		if err != nil {
			t.Fatal(err)
		}
		if copyOf.ID == orig.ID || copyOf.DisplayKey == orig.DisplayKey || copyOf.State != media.Ready ||
			copyOf.Placeholder != orig.Placeholder || copyOf.Width != 200 || copyOf.Height != 120 ||
			(orig.DisplayWebP != "") != (copyOf.DisplayWebP != "") {
			t.Fatalf("import %+v of %+v", copyOf, orig)
		}
		v, err := s.App.Uploads.View(copyOf)
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range []string{v.Display, v.Thumb} {
			if rec := get(t, s.Handler, u); rec.Code != 200 {
				t.Fatalf("%s: %d", u, rec.Code)
			}
		}

		rows, blobs := counts(t, s)
		manifest, err := os.ReadFile(filepath.Join(dir, media.ManifestName))
		if err != nil {
			t.Fatal(err)
		}
		display, _ := os.ReadFile(filepath.Join(dir, "display.jpg"))
		for name, fsys := range map[string]fstest.MapFS{
			"no manifest":  {"display.jpg": {Data: display}},
			"bad manifest": {media.ManifestName: {Data: []byte("{")}},
			"no thumb":     {media.ManifestName: {Data: []byte(`{"kind":"image","display":"display.jpg"}`)}, "display.jpg": {Data: display}},
			"missing file": {media.ManifestName: {Data: manifest}, "display.jpg": {Data: display}},
			"unknown kind": {media.ManifestName: {Data: []byte(`{"kind":"audio","display":"display.jpg","thumb":"display.jpg"}`)}},
		} {
			if _, err := s.App.Uploads.Import(ctx, l.User.ID, fsys); !errors.Is(err, media.ErrBadExport) {
				t.Fatalf("%s: %v", name, err)
			}
		}
		if r, b := counts(t, s); r != rows || b != blobs {
			t.Fatalf("refused imports left %d rows and %d blobs (had %d, %d)", r, b, rows, blobs)
		}
		// An unknown asset has nothing to export.
		if err := s.App.Uploads.Export(ctx, 424242, dir); !errors.Is(err, media.ErrNotFound) {
			t.Fatalf("unknown asset: %v", err)
		}
	})
}
