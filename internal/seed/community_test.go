package seed

import (
	"context"
	"testing"

	"prima/internal/app"
)

// checkSeedCommunity checks the demo community a fresh seed made.
func checkSeedCommunity(t *testing.T, a *app.App, counts map[string]int) {
	t.Helper()
	ctx := context.Background()
	q := func(query string) int {
		t.Helper()
		var n int
		if err := a.DB.QueryRow(ctx, query).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if counts["topics"] < 6 || counts["topics"] > 8 || counts["posts"] < 35 || counts["posts"] > 45 || counts["post_likes"] == 0 || counts["comments"] == 0 {
		t.Fatalf("community counts: %v", counts)
	}
	if n := q(`SELECT COUNT(*) FROM topics WHERE cover = '' OR description = ''`); n != 0 {
		t.Errorf("%d topics without a cover or description", n)
	}
	if n := q(`SELECT COUNT(*) FROM posts WHERE state <> 'published' OR published_at = 0`); n != 0 {
		t.Errorf("%d seeded posts not published", n)
	}
	for kind, least := range map[string]int{"picture": 15, "article": 5} {
		if n := q(`SELECT COUNT(*) FROM posts WHERE kind = '` + kind + `'`); n < least {
			t.Errorf("%d %s posts, want at least %d", n, kind, least)
		}
	}
	if q(`SELECT COUNT(*) FROM media_assets WHERE kind = 'video'`) > 0 && q(`SELECT COUNT(*) FROM posts WHERE kind = 'video'`) == 0 {
		t.Error("no video post though the seed made clips")
	}
	if q(`SELECT COUNT(*) FROM posts WHERE vip_level > 0`) == 0 || q(`SELECT COUNT(*) FROM posts WHERE coins > 0`) == 0 {
		t.Error("no VIP or gold post")
	}
	if n := q(`SELECT COUNT(DISTINCT author_id) FROM posts`); n < 5 {
		t.Errorf("%d authors", n)
	}
	if n := q(`SELECT COUNT(DISTINCT p.module_id) FROM posts p JOIN modules s ON s.id = p.module_id JOIN modules m ON m.id = s.pid WHERE m.module_type = 1`); n < 3 {
		t.Errorf("posts in %d community sub-modules", n)
	}
	if n := q(`SELECT MAX(published_at) - MIN(published_at) FROM posts`); n < 14*86400 {
		t.Errorf("posts span %d s, want weeks", n)
	}
	// Counts equal their rows; pictures are their author's; 1-9 each.
	if n := q(`SELECT COUNT(*) FROM posts p WHERE like_count <> (SELECT COUNT(*) FROM post_likes l WHERE l.post_id = p.id)
		OR comment_count <> (SELECT COUNT(*) FROM comments c WHERE c.post_id = p.id AND c.state = 'published')`); n != 0 {
		t.Errorf("%d posts whose counts differ from their rows", n)
	}
	if n := q(`SELECT COUNT(*) FROM comments c WHERE parent_id = 0 AND reply_count <> (SELECT COUNT(*) FROM comments r WHERE r.parent_id = c.id)`); n != 0 {
		t.Errorf("%d comments whose reply counts differ", n)
	}
	if n := q(`SELECT COUNT(*) FROM post_pictures pp JOIN posts p ON p.id = pp.post_id JOIN media_assets m ON m.id = pp.asset_id WHERE m.owner_uid <> p.author_id OR m.kind <> 'image'`); n != 0 {
		t.Errorf("%d pictures not their author's", n)
	}
	if n := q(`SELECT COUNT(*) FROM posts p WHERE kind = 'picture' AND (SELECT COUNT(*) FROM post_pictures pp WHERE pp.post_id = p.id) NOT BETWEEN 1 AND 9`); n != 0 {
		t.Errorf("%d picture posts with a wrong picture count", n)
	}
	if n := q(`SELECT COUNT(*) FROM post_likes l JOIN posts p ON p.id = l.post_id WHERE l.user_id = p.author_id`); n != 0 {
		t.Errorf("%d self-likes", n)
	}
}
