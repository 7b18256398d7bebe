// Package seed loads the demo catalogue into an empty install, so that a
// new Prima is alive the moment it starts: modules of every type with named
// sections, a few hundred videos with covers, tags, announcements, ads, the
// remote configuration and the demo accounts.
package seed

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base32"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"time"

	"prima/internal/account"
	"prima/internal/app"
	"prima/internal/catalog"
	pmedia "prima/internal/media"
	"prima/internal/platform/blob"
	"prima/internal/platform/db"
	"prima/internal/search"
)

// Run seeds a's database and media store when the catalogue is empty and
// reports what it did. A database that already holds modules or videos is
// left exactly as it is, demo accounts included: their passwords are public,
// so they must never be added to an install that is already in use.
//
// After the catalogue it makes the demo media (see media.go): clips
// attached to the videos and the galleries. That step runs after the
// catalogue's transaction (the pipeline runs ffmpeg and opens its own
// transactions); if it fails, the error says so and the catalogue stays.
func Run(ctx context.Context, a *app.App) (string, error) {
	return RunWith(ctx, a, Options{})
}

// RunWith is Run with options.
func RunWith(ctx context.Context, a *app.App, o Options) (string, error) {
	start := time.Now()
	var st stats
	err := a.DB.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		if tx.Engine() == db.Postgres {
			// Two seeds at once must not both find the catalogue empty.
			if _, err := tx.Exec(ctx, "LOCK TABLE modules IN EXCLUSIVE MODE"); err != nil {
				return err
			}
		}
		var modules, videos int
		if err := tx.QueryRow(ctx, "SELECT (SELECT COUNT(*) FROM modules), (SELECT COUNT(*) FROM videos)").Scan(&modules, &videos); err != nil {
			return err
		}
		if modules > 0 || videos > 0 {
			st.present, st.videos = true, videos
			var err error
			st.supportEntries, err = seedSupport(ctx, tx, a.Config.PublicURL, videos)
			return err
		}
		if err := seedCatalogue(ctx, tx, a.Media, a.Config.PublicURL, start.Unix(), &st); err != nil {
			return err
		}
		var err error
		st.vipProducts, err = seedVIPProducts(ctx, tx, start.Unix())
		return err
	})
	if err != nil {
		return "", fmt.Errorf("seed: %w", err)
	}
	if st.present && st.supportEntries > 0 {
		return fmt.Sprintf("catalogue already present: %d videos; added %d help, group and app entries", st.videos, st.supportEntries), nil
	}
	if st.present {
		return fmt.Sprintf("catalogue already present: %d videos; nothing changed", st.videos), nil
	}
	users, err := account.SeedDemoUsers(ctx, a.Account)
	if err != nil {
		return "", fmt.Errorf("seed demo users: %w", err)
	}
	took := time.Since(start)
	// The demo media are the uploads of the plain demo account.
	owner, err := a.Account.UserByAccount(ctx, account.DemoUsers[0].Account)
	if err != nil {
		return "", fmt.Errorf("seed: the demo account: %w", err)
	}
	ms, err := seedMedia(ctx, a, owner.ID, o)
	if err != nil {
		return "", fmt.Errorf("seed demo media (the catalogue is in place without it; start from an empty database to retry): %w", err)
	}
	cm, err := seedCommunity(ctx, a, owner.ID)
	if err != nil {
		return "", fmt.Errorf("seed the demo community (the catalogue and media are in place without it): %w", err)
	}
	// The catalogue and the community are written with the stores' plain
	// inserts (one big transaction, no per-row hooks), so the search index
	// is built once at the end, exactly as `prima reindex` builds it.
	indexStart := time.Now()
	docs, err := search.Reindex(ctx, a.DB)
	if err != nil {
		return "", fmt.Errorf("seed: indexing for search (run `prima reindex` to retry): %w", err)
	}
	ix := fmt.Sprintf("  %d items indexed for search in %s", docs, time.Since(indexStart).Round(10*time.Millisecond))
	return st.report(users, took) + "\n" + ms.report() + "\n" + cm + "\n" + ix, nil
}

func (m mediaStats) report() string {
	return fmt.Sprintf("  demo media in %s: %d clips on %d videos, %d pictures in %d galleries (%s)",
		m.took.Round(10*time.Millisecond), m.clips, m.withMedia, m.pictures, m.galleries, m.source)
}

// stats is what a seed created, for its report.
type stats struct {
	present                 bool
	supportEntries          int
	modules, subs, videos   int
	vip, superVip, priced   int
	tags, taggings          int
	announcements, ads      int
	sourceEntries, preSales int
	images                  int
	imageBytes              int64
	vipProducts             int
	coinPackages            int
	welfare                 int
}

func (s stats) report(users int, took time.Duration) string {
	var b strings.Builder
	fmt.Fprintf(&b, "seeded the demo catalogue in %s:\n", took.Round(10*time.Millisecond))
	fmt.Fprintf(&b, "  %d modules (types 0-4) with %d sub-modules\n", s.modules, s.subs)
	fmt.Fprintf(&b, "  %d videos: %d VIP, %d super VIP, %d priced in coins\n", s.videos, s.vip, s.superVip, s.priced)
	fmt.Fprintf(&b, "  %d tags on %d video-tag links\n", s.tags, s.taggings)
	fmt.Fprintf(&b, "  %d announcements, %d ads, %d remote-configuration entries over %d keys, %d pre-sale banners\n",
		s.announcements, s.ads, s.sourceEntries, len(catalog.SourceKeys), s.preSales)
	fmt.Fprintf(&b, "  %d coin packages (top-up through the sandbox provider)\n", s.coinPackages)
	fmt.Fprintf(&b, "  %d welfare tasks and points prizes\n", s.welfare)
	fmt.Fprintf(&b, "  %d images (covers and banners, JPEG) in the media store, %d KB\n", s.images, s.imageBytes/1024)
	fmt.Fprintf(&b, "  %d VIP cards\n", s.vipProducts)
	fmt.Fprintf(&b, "  %d demo accounts created", users)
	var creds []string
	for _, u := range account.DemoUsers {
		creds = append(creds, u.Account+" / "+u.Password)
	}
	fmt.Fprintf(&b, " (sign in with %s)", strings.Join(creds, ", "))
	return b.String()
}

// immutableKey names a seed picture under folder with a token the blob
// handler treats as a version (blob.Immutable), so browsers and CDNs keep
// it for a year. The token is a hash of the picture's plan name and of
// artVersion, so the same seed gives the same keys, and a change of the
// drawings (bump artVersion) gives new ones rather than stale caches.
func immutableKey(name, folder string) string {
	sum := sha256.Sum256([]byte("prima seed " + artVersion + " " + name))
	token := strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(sum[:16]))
	return folder + "/" + token + ".jpg"
}

// artVersion is the version of the seed's drawings (cover.go).
const artVersion = "1"

// picture is an image to draw and store.
type picture struct {
	key string
	art artwork
}

// seedCatalogue writes the whole plan in tx, pictures included, so a failed
// seed leaves the catalogue empty and can simply be run again.
func seedCatalogue(ctx context.Context, tx *db.Tx, media blob.Store, publicURL string, now int64, st *stats) error {
	// Modules.
	subIDs := make([][]int64, len(catalogueSpec))
	modIDs := make([]int64, len(catalogueSpec))
	for mi, m := range catalogueSpec {
		id, err := catalog.InsertModule(ctx, tx, 0, m.Name, m.Type, m.Sort, now)
		if err != nil {
			return err
		}
		modIDs[mi] = id
		st.modules++
		for si, name := range m.Subs {
			sid, err := catalog.InsertModule(ctx, tx, id, name, m.Type, si+1, now)
			if err != nil {
				return err
			}
			subIDs[mi] = append(subIDs[mi], sid)
			st.subs++
		}
	}

	tagIDs := make([]int64, len(tagNames))
	for i, name := range tagNames {
		id, err := catalog.InsertTag(ctx, tx, name, i+1, now)
		if err != nil {
			return err
		}
		tagIDs[i] = id
		st.tags++
	}

	// Videos, then their covers, which are named by id.
	var pics []picture
	for _, pv := range planVideos() {
		v := pv.NewVideo
		v.ModuleID = modIDs[pv.Module]
		v.SubModuleID = subIDs[pv.Module][pv.Sub]
		v.CreatedAt = now - pv.AgeSeconds
		id, err := catalog.InsertVideo(ctx, tx, v)
		if err != nil {
			return err
		}
		// A landscape cover is a card-size set (pmedia.CardKey): the
		// picture and its 360 px copy, drawn at that size rather than
		// scaled. A vertical one (short videos) fills the screen instead.
		var key string
		if catalogueSpec[pv.Module].Short {
			key = immutableKey(fmt.Sprintf("covers/%d.jpg", id), "covers")
			pics = append(pics, picture{key, coverArt(id, 270, 480)})
		} else {
			key = immutableKey(fmt.Sprintf("covers/%d.jpg", id), pmedia.CoverSetPrefix)
			pics = append(pics, picture{key, coverArt(id, 480, 270)}, picture{pmedia.CardKey(key), coverArt(id, pmedia.CardWidth, 202)})
		}
		if err := catalog.SetVideoCover(ctx, tx, id, "/media/"+key); err != nil {
			return err
		}
		for _, t := range pv.Tags {
			if err := catalog.TagVideo(ctx, tx, id, tagIDs[t]); err != nil {
				return err
			}
			st.taggings++
		}
		st.videos++
		switch {
		case v.VipLevel == 1:
			st.vip++
		case v.VipLevel == 2:
			st.superVip++
		case v.Coins > 0:
			st.priced++
		}
	}

	// Announcements, newest first: each a minute older than the one before.
	for i, an := range announcements {
		if _, err := catalog.InsertAnnouncement(ctx, tx, an, i, 0, 0, now-int64(60*i)); err != nil {
			return err
		}
		st.announcements++
	}
	for _, ad := range ads {
		ad.Key = immutableKey(ad.Key, "ads")
		ad.Image = "/media/" + ad.Key
		if _, err := catalog.InsertAd(ctx, tx, ad.Ad, ad.Order, 0, 0, now); err != nil {
			return err
		}
		pics = append(pics, picture{ad.Key, ad.Art})
		st.ads++
	}
	entries := sourceEntries(publicURL)
	for _, k := range catalog.SourceKeys {
		for i, e := range entries[k] {
			if err := catalog.InsertSourceEntry(ctx, tx, k, e, i); err != nil {
				return err
			}
			st.sourceEntries++
		}
	}
	for i, p := range preSales() {
		if err := catalog.InsertPreSale(ctx, tx, p.PreSale, i); err != nil {
			return err
		}
		pics = append(pics, picture{p.Key, p.Art})
		st.preSales++
	}

	if err := seedCoinPackages(ctx, tx, now, st); err != nil {
		return err
	}
	if err := seedWelfare(ctx, tx, now, st); err != nil {
		return err
	}
	if err := seedSearchPins(ctx, tx); err != nil {
		return err
	}

	n, size, err := drawAll(ctx, media, pics)
	st.images, st.imageBytes = n, size
	return err
}

// drawAll renders and stores pics in parallel. Drawing and encoding are
// CPU-bound, but each Put waits on an fsync, so there are a few workers per
// core: while some wait on the disk the others keep every core busy.
func drawAll(ctx context.Context, media blob.Store, pics []picture) (int, int64, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	jobs := make(chan picture)
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		count int
		total int64
	)
	for range 4 * runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range jobs {
				b, err := p.art.jpegBytes()
				if err == nil {
					err = media.Put(ctx, p.key, bytes.NewReader(b), "image/jpeg")
				}
				if err != nil {
					cancel(fmt.Errorf("image %s: %w", p.key, err))
					continue
				}
				mu.Lock()
				count++
				total += int64(len(b))
				mu.Unlock()
			}
		}()
	}
feed:
	for _, p := range pics {
		select {
		case jobs <- p:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	// Until the deferred cancel, a cause means a failed picture or a
	// cancelled caller.
	return count, total, context.Cause(ctx)
}

// seedSupport gives an install seeded before the support pages existed
// their lists (supportEntries): a key that is empty, or FAQ still holding
// the one placeholder entry the first seed wrote, is filled, unless an
// operator has ever set it (an audit row says so). An install without
// videos is someone's own catalogue, not a demo, and is left alone.
func seedSupport(ctx context.Context, tx *db.Tx, publicURL string, videos int) (int, error) {
	if videos == 0 {
		return 0, nil
	}
	home := strings.TrimSuffix(publicURL, "/") + "/"
	added := 0
	for _, key := range []string{"FAQ", "GROUP", "APPS"} {
		var set, n int
		var first string
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM audit_log WHERE action = 'source.set' AND target_id = ?`, key).Scan(&set); err != nil {
			return 0, err
		}
		if err := tx.QueryRow(ctx, `SELECT COUNT(*), COALESCE(MIN(title), '') FROM source_entries WHERE config_key = ?`, key).Scan(&n, &first); err != nil {
			return 0, err
		}
		old := key == "FAQ" && n == 1 && first == "常见问题"
		if set > 0 || (n > 0 && !old) {
			continue
		}
		if _, err := tx.Exec(ctx, `DELETE FROM source_entries WHERE config_key = ?`, key); err != nil {
			return 0, err
		}
		for i, e := range supportEntries(home)[key] {
			if err := catalog.InsertSourceEntry(ctx, tx, key, e, i); err != nil {
				return 0, err
			}
			added++
		}
	}
	return added, nil
}
