package gallery_test

import (
	"context"
	"slices"
	"testing"

	"prima/internal/app/apptest"
	"prima/internal/gallery"
	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/search"
)

func galleryWant(t *testing.T, d *db.DB, text string, id int64, vip int, want bool, when string) {
	t.Helper()
	hits, _, err := search.Search(context.Background(), d, search.Query{Text: text, Kind: search.KindGallery, VipLevel: vip, Sort: "relevance", Limit: 100})
	if err != nil {
		t.Fatalf("search %q: %v", text, err)
	}
	var ids []int64
	for _, h := range hits {
		ids = append(ids, h.ID)
	}
	if slices.Contains(ids, id) != want {
		t.Errorf("%s: search %q found %v; want %d found: %v", when, text, ids, id, want)
	}
}

// TestGallerySearchFollowsWrites: a gallery is found exactly while it is
// published, by its current title, at its current access level.
func TestGallerySearchFollowsWrites(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		ctx := context.Background()
		f := newFixture(t, s, 2)
		d, g := s.App.DB, s.App.Galleries
		op := audit.Actor{UID: audit.CLI}

		draft, err := g.Create(ctx, op, gallery.NewGallery{Title: "海边日落", SubModuleID: f.sub, Assets: f.pics})
		if err != nil {
			t.Fatal(err)
		}
		galleryWant(t, d, "日落", draft, -1, false, "a draft")
		yes, no := true, false
		if _, err := g.Update(ctx, op, draft, gallery.Edit{Published: &yes}); err != nil {
			t.Fatal(err)
		}
		galleryWant(t, d, "日落", draft, -1, true, "published")
		galleryWant(t, d, "海", draft, -1, true, "published, one character")

		title, vip := "雪山星空", 2
		if _, err := g.Update(ctx, op, draft, gallery.Edit{Title: &title, VipLevel: &vip}); err != nil {
			t.Fatal(err)
		}
		galleryWant(t, d, "星空", draft, 2, true, "renamed, super VIP")
		galleryWant(t, d, "星空", draft, 0, false, "super VIP among free galleries")
		galleryWant(t, d, "日落", draft, -1, false, "renamed, old title")

		// Published at creation: found at once.
		pub, err := g.Create(ctx, op, gallery.NewGallery{Title: "城市夜景", SubModuleID: f.sub, Published: true, Assets: f.pics})
		if err != nil {
			t.Fatal(err)
		}
		galleryWant(t, d, "夜景", pub, -1, true, "created published")
		if _, err := g.Update(ctx, op, pub, gallery.Edit{Published: &no}); err != nil {
			t.Fatal(err)
		}
		galleryWant(t, d, "夜景", pub, -1, false, "unpublished")

		// A refused edit (into a video sub-module) changes nothing.
		if _, err := g.Update(ctx, op, draft, gallery.Edit{Title: &title, SubModuleID: &f.vidSub}); err == nil {
			t.Fatal("moved a gallery into a video sub-module")
		}
		galleryWant(t, d, "星空", draft, -1, true, "a refused edit")

		var kept, fresh int
		count := func(n *int) {
			c, err := search.Counts(ctx, d)
			if err != nil {
				t.Fatal(err)
			}
			*n = c[search.KindGallery]
		}
		count(&kept)
		if _, err := search.Reindex(ctx, d); err != nil {
			t.Fatal(err)
		}
		count(&fresh)
		if kept != 1 || fresh != kept {
			t.Errorf("gallery docs: %d kept, %d rebuilt, want 1 and 1", kept, fresh)
		}
	})
}
