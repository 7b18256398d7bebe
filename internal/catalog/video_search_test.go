package catalog

import (
	"context"
	"slices"
	"strings"
	"testing"

	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/search"
)

// videoFound is the ids search finds for text among kind's hits, at any
// VIP level, as a user searching would.
func videoFound(t *testing.T, d *db.DB, kind, text string, vip int) []int64 {
	t.Helper()
	hits, _, err := search.Search(context.Background(), d, search.Query{Text: text, Kind: kind, VipLevel: vip, Sort: "relevance", Limit: 100})
	if err != nil {
		t.Fatalf("search %s %q: %v", kind, text, err)
	}
	var ids []int64
	for _, h := range hits {
		if h.Kind != kind {
			t.Errorf("search %s %q: a %s hit", kind, text, h.Kind)
		}
		ids = append(ids, h.ID)
	}
	return ids
}

// videoIndexDocs is the index's rows, for comparing with a fresh Reindex.
func videoIndexDocs(t *testing.T, d *db.DB) string {
	t.Helper()
	rows, err := search.Dump(context.Background(), d)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(rows, "\n")
}

// videoAgreesWithReindex checks the index kept by the write paths is the
// one a rebuild from the tables makes.
func videoAgreesWithReindex(t *testing.T, d *db.DB) {
	t.Helper()
	kept := videoIndexDocs(t, d)
	if _, err := search.Reindex(context.Background(), d); err != nil {
		t.Fatal(err)
	}
	if fresh := videoIndexDocs(t, d); fresh != kept {
		t.Errorf("the index drifted from the tables:\nkept:\n%s\nrebuilt:\n%s", kept, fresh)
	}
}

func videoHas(ids []int64, id int64) bool { return slices.Contains(ids, id) }

// TestVideoSearchFollowsWrites: every operator write of a video, its tags
// and its placement leaves the index showing exactly what users may see.
func TestVideoSearchFollowsWrites(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newFixture(t, d)
		s := newTestService(d, Options{})
		op := audit.Actor{UID: 1, IP: "127.0.0.1"}
		// The fixture wrote rows directly; start from an index that agrees.
		if _, err := search.Reindex(ctx, d); err != nil {
			t.Fatal(err)
		}
		str := func(v string) *string { return &v }
		i64 := func(v int64) *int64 { return &v }
		yes, no := true, false

		// A draft is not found; published, it is, by one and two characters.
		v, err := s.CreateVideo(ctx, op, VideoInput{Title: str("北京烤鸭 iPhone 教程"), SubModuleID: &f.rec, TagIDs: &[]int64{f.tags[0]}})
		if err != nil {
			t.Fatal(err)
		}
		if got := videoFound(t, d, search.KindVideo, "烤鸭", -1); videoHas(got, v.ID) {
			t.Errorf("a draft is found: %v", got)
		}
		if _, err := s.SetPublished(ctx, op, v.ID, true); err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{"烤鸭", "鸭", "北京", "iphone 教程"} {
			if got := videoFound(t, d, search.KindVideo, q, -1); !videoHas(got, v.ID) {
				t.Errorf("published, %q does not find it: %v", q, got)
			}
		}
		// Created published at once: found with no further step.
		w, err := s.CreateVideo(ctx, op, VideoInput{Title: str("成都火锅"), SubModuleID: &f.rec, Published: &yes})
		if err != nil {
			t.Fatal(err)
		}
		if got := videoFound(t, d, search.KindVideo, "火锅", -1); !videoHas(got, w.ID) {
			t.Errorf("created published, not found: %v", got)
		}

		// A new title: found by it, not by the old one.
		if _, err := s.UpdateVideo(ctx, op, v.ID, VideoInput{Title: str("上海小笼包")}); err != nil {
			t.Fatal(err)
		}
		if got := videoFound(t, d, search.KindVideo, "小笼包", -1); !videoHas(got, v.ID) {
			t.Errorf("renamed, new title does not find it: %v", got)
		}
		if got := videoFound(t, d, search.KindVideo, "烤鸭", -1); videoHas(got, v.ID) {
			t.Errorf("renamed, old title still finds it: %v", got)
		}

		// Tags: a tag's name finds its videos; a renamed tag by the new
		// name only; a removed or deleted tag not at all.
		if _, err := s.UpdateVideo(ctx, op, v.ID, VideoInput{TagIDs: &[]int64{f.tags[1]}}); err != nil {
			t.Fatal(err)
		}
		if got := videoFound(t, d, search.KindVideo, "高清", -1); !videoHas(got, v.ID) {
			t.Errorf("tagged 高清, not found by it: %v", got)
		}
		if got := videoFound(t, d, search.KindVideo, "剧情", -1); videoHas(got, v.ID) {
			t.Errorf("untagged 剧情, still found by it: %v", got)
		}
		if _, err := s.UpdateTag(ctx, op, f.tags[1], ModuleChange{Name: str("超清画质")}); err != nil {
			t.Fatal(err)
		}
		if got := videoFound(t, d, search.KindVideo, "超清", -1); !videoHas(got, v.ID) {
			t.Errorf("tag renamed, the new name does not find it: %v", got)
		}
		if got := videoFound(t, d, search.KindVideo, "高清", -1); videoHas(got, v.ID) {
			t.Errorf("tag renamed, the old name still finds it: %v", got)
		}
		if _, err := s.DeleteTag(ctx, op, f.tags[1]); err != nil {
			t.Fatal(err)
		}
		if got := videoFound(t, d, search.KindVideo, "超清", -1); videoHas(got, v.ID) {
			t.Errorf("tag deleted, still found by it: %v", got)
		}

		// Access level follows the video.
		if _, err := s.UpdateVideo(ctx, op, v.ID, VideoInput{VipLevel: i64(2)}); err != nil {
			t.Fatal(err)
		}
		if got := videoFound(t, d, search.KindVideo, "小笼包", 2); !videoHas(got, v.ID) {
			t.Errorf("super VIP, not found among super VIP videos: %v", got)
		}
		if got := videoFound(t, d, search.KindVideo, "小笼包", 0); videoHas(got, v.ID) {
			t.Errorf("super VIP, found among free videos: %v", got)
		}

		// Moved into a short-video module it is a short video, and back.
		if _, err := s.UpdateVideo(ctx, op, v.ID, VideoInput{SubModuleID: &f.vertical}); err != nil {
			t.Fatal(err)
		}
		if got := videoFound(t, d, search.KindShort, "小笼包", -1); !videoHas(got, v.ID) {
			t.Errorf("moved to a short module, not a short video: %v", got)
		}
		if got := videoFound(t, d, search.KindVideo, "小笼包", -1); videoHas(got, v.ID) {
			t.Errorf("moved to a short module, still a long video: %v", got)
		}
		if _, err := s.UpdateVideo(ctx, op, v.ID, VideoInput{SubModuleID: &f.latest}); err != nil {
			t.Fatal(err)
		}
		if got := videoFound(t, d, search.KindVideo, "小笼包", -1); !videoHas(got, v.ID) {
			t.Errorf("moved back, not a long video: %v", got)
		}
		if got := videoFound(t, d, search.KindShort, "小笼包", -1); videoHas(got, v.ID) {
			t.Errorf("moved back, still a short video: %v", got)
		}

		// Unpublished (either call) it is gone; deleted it stays gone.
		if _, err := s.UpdateVideo(ctx, op, w.ID, VideoInput{Published: &no}); err != nil {
			t.Fatal(err)
		}
		if got := videoFound(t, d, search.KindVideo, "火锅", -1); videoHas(got, w.ID) {
			t.Errorf("unpublished by update, still found: %v", got)
		}
		if _, err := s.SetPublished(ctx, op, v.ID, false); err != nil {
			t.Fatal(err)
		}
		if got := videoFound(t, d, search.KindVideo, "小笼包", -1); videoHas(got, v.ID) {
			t.Errorf("unpublished, still found: %v", got)
		}
		videoAgreesWithReindex(t, d)
		if err := s.DeleteVideo(ctx, op, v.ID); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{search.KindVideo, search.KindShort} {
			if in, err := search.Indexed(ctx, d, k, v.ID); err != nil || in {
				t.Errorf("deleted video: still a %s doc (%v)", k, err)
			}
		}
		videoAgreesWithReindex(t, d)
	})
}

// TestVideoSearchRefusedWriteLeavesIndex: a write that is refused (a
// published video cannot be deleted) rolls the index back with it.
func TestVideoSearchRefusedWriteLeavesIndex(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newFixture(t, d)
		s := newTestService(d, Options{})
		op := audit.Actor{UID: 1}
		title, yes := "西湖醋鱼", true
		v, err := s.CreateVideo(ctx, op, VideoInput{Title: &title, SubModuleID: &f.rec, Published: &yes})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.DeleteVideo(ctx, op, v.ID); err == nil {
			t.Fatal("deleted a published video")
		}
		bad := "x"
		other := int64(999999)
		if _, err := s.UpdateVideo(ctx, op, v.ID, VideoInput{Title: &bad, SubModuleID: &other}); err == nil {
			t.Fatal("moved into no module")
		}
		if got := videoFound(t, d, search.KindVideo, "醋鱼", -1); !videoHas(got, v.ID) {
			t.Errorf("a refused write changed the index: %v", got)
		}
	})
}
