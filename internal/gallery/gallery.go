// Package gallery is picture galleries: ordered pictures (media assets of
// kind image) under a sub-module of an images module (module_type 3), with
// the access levels of videos, favourites and the operators' calls that
// make them (docs/architecture.md, "Galleries and the demo media").
//
// Pictures are handed out as signed URLs of their display and thumbnail
// variants, one signature per file: a caller without access gets the URLs
// of the first FreeImages pictures only, and since each URL's signature
// binds its own key, none of them opens another picture.
package gallery

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"prima/internal/catalog"
	"prima/internal/media"
	"prima/internal/membership"
	"prima/internal/platform/audit"
	"prima/internal/platform/blob"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
	"prima/internal/search"
)

// Limits.
const (
	// FreeImages is how many pictures of a gallery a caller without access
	// sees: the teaser above the paywall.
	FreeImages = 3
	// MaxImages bounds one gallery.
	MaxImages = 200
	// MaxTitle is the longest title, in characters.
	MaxTitle = 100
	// MaxCoins is the highest coin price.
	MaxCoins = 100000
	// URLTTL is how long the picture URLs handed out live.
	URLTTL = 2 * time.Hour
)

// Errors the HTTP layer maps to answers.
var (
	ErrNotFound    = errors.New("gallery: no such gallery")
	ErrBadModule   = errors.New("gallery: not a sub-module of an images module")
	ErrBadAsset    = errors.New("gallery: not a ready picture")
	ErrDuplicate   = errors.New("gallery: a picture appears twice")
	ErrImageCount  = errors.New("gallery: wrong number of pictures")
	ErrInvalidEdit = errors.New("gallery: invalid field")
)

// ImagesModuleType is module_type of the images modules.
const ImagesModuleType = 3

// Gallery is a gallery as lists show it. The cover is the first picture's
// thumbnail (signed): the first picture is always free to see, so a cover
// never shows what the paywall hides.
type Gallery struct {
	ID               int64     `json:"id"`
	Title            string    `json:"title"`
	Cover            string    `json:"cover"`
	CoverWebP        string    `json:"coverWebp,omitempty"`
	CoverPlaceholder string    `json:"coverPlaceholder"`
	CoverWidth       int       `json:"coverWidth"`
	CoverHeight      int       `json:"coverHeight"`
	ModuleID         int64     `json:"moduleID"`
	SubModuleID      int64     `json:"subModuleID"`
	VipLevel         int       `json:"vipLevel"`
	Coins            int64     `json:"coins"`
	ImageCount       int       `json:"imageCount"`
	Published        bool      `json:"published"`
	CreatedAt        time.Time `json:"createdAt"`
	UpdatedAt        time.Time `json:"updatedAt"`

	coverAsset            int64  // the picture at position 0 (0: none)
	coverThumb, coverWebP string // its keys, signed on the way out
}

// Image is one picture of a detail. A locked picture has its size and
// placeholder (so the page can lay it out blurred) and no URL at all.
type Image struct {
	Position    int    `json:"position"`
	AssetID     int64  `json:"assetId"`
	Width       int    `json:"width"`
	Height      int    `json:"height"`
	Placeholder string `json:"placeholder"` // BlurHash
	Locked      bool   `json:"locked"`
	Thumb       string `json:"thumb,omitempty"`
	Display     string `json:"display,omitempty"`
	ThumbWebP   string `json:"thumbWebp,omitempty"`
	DisplayWebP string `json:"displayWebp,omitempty"`

	thumb, display, thumbWebP, displayWebP string
}

// Detail is GET /api/app/gallery/info's answer.
type Detail struct {
	Gallery
	IsCollect bool              `json:"isCollect"`
	Access    membership.Access `json:"access"`
	Paywall   *catalog.Paywall  `json:"paywall"` // null when allowed
	Images    []Image           `json:"images"`
	ExpiresAt time.Time         `json:"expiresAt"`
}

// Entitlements decides access to a gallery (membership.Service implements it).
type Entitlements interface {
	CheckGallery(ctx context.Context, uid int64, g membership.Video) (membership.Access, error)
}

// Service holds the gallery rules.
type Service struct {
	db     *db.DB
	signer *blob.Signer
	access Entitlements
	// Modules reads the catalogue module a gallery is filed under; the
	// app wires catalog.ModuleKind (catalog owns modules).
	Modules ModuleKind
	// Assets reads the pictures' uploads; the app wires media.AssetsOn
	// (media owns media_assets).
	Assets AssetsOn
	now    func() time.Time
}

// AssetsOn reads the uploads among ids on q in one query, by id; an id
// with no upload is absent.
type AssetsOn func(ctx context.Context, q db.Querier, ids []int64) (map[int64]media.Asset, error)

var errNoAssets = errors.New("gallery: Assets is not wired")

// assets reads ids through Assets.
func (s *Service) assets(ctx context.Context, q db.Querier, ids []int64) (map[int64]media.Asset, error) {
	if s.Assets == nil {
		return nil, errNoAssets
	}
	return s.Assets(ctx, q, ids)
}

// ModuleKind is a catalogue module's parent (0 for a top-level one) and
// type, db.ErrNotFound when there is none, read on q.
type ModuleKind func(ctx context.Context, q db.Querier, id int64) (pid int64, moduleType int, err error)

var errNoModules = errors.New("gallery: Modules is not wired")

// NewService builds the service over d, signing with signer, deciding
// access with access, reading catalogue modules with modules and the
// pictures' uploads with assets.
func NewService(d *db.DB, signer *blob.Signer, access Entitlements, modules ModuleKind, assets AssetsOn) *Service {
	return &Service{db: d, signer: signer, access: access, Modules: modules, Assets: assets, now: time.Now}
}

// galleryCols ends with the cover's upload id, galleryFrom's picture at
// position 0 (0 when there is none); covers reads the upload.
const galleryCols = `g.id, g.title, g.module_id, g.sub_module_id, g.vip_level, g.coins, g.image_count, g.published, g.created_at, g.updated_at,
	COALESCE(gi.asset_id, 0)`

// galleryFrom joins the cover: the picture at position 0.
const galleryFrom = ` FROM galleries g
	LEFT JOIN gallery_images gi ON gi.gallery_id = g.id AND gi.position = 0`

func scanGallery(s db.Scanner) (Gallery, error) {
	var g Gallery
	var published int
	var created, updated int64
	err := s.Scan(&g.ID, &g.Title, &g.ModuleID, &g.SubModuleID, &g.VipLevel, &g.Coins, &g.ImageCount, &published, &created, &updated,
		&g.coverAsset)
	g.Published = published == 1
	g.CreatedAt, g.UpdatedAt = time.Unix(created, 0).UTC(), time.Unix(updated, 0).UTC()
	return g, err
}

func (s *Service) sign(key string) (string, error) {
	if key == "" {
		return "", nil
	}
	return s.signer.URL(key, URLTTL)
}

// signCovers fills the covers of gs from their uploads (one read for
// all) and signs their URLs.
func (s *Service) signCovers(ctx context.Context, gs []Gallery) error {
	ids := make([]int64, 0, len(gs))
	for _, g := range gs {
		if g.coverAsset != 0 {
			ids = append(ids, g.coverAsset)
		}
	}
	assets, err := s.assets(ctx, s.db, ids)
	if err != nil {
		return err
	}
	for i := range gs {
		if a, ok := assets[gs[i].coverAsset]; ok {
			gs[i].coverThumb, gs[i].coverWebP = a.ThumbKey, a.ThumbWebP
			gs[i].CoverPlaceholder, gs[i].CoverWidth, gs[i].CoverHeight = a.Placeholder, a.Width, a.Height
		}
		var err error
		if gs[i].Cover, err = s.sign(gs[i].coverThumb); err != nil {
			return err
		}
		if gs[i].CoverWebP, err = s.sign(gs[i].coverWebP); err != nil {
			return err
		}
	}
	return nil
}

// Query selects a list: one module, one sub-module, or (VIP) every gallery
// with vip_level > 0, optionally within a module.
type Query struct {
	ModuleID, SubModuleID int64
	VIP                   bool
	PageNumber, PageSize  int
}

// List is one page of published galleries, newest first. A scope that
// does not exist is db.ErrNotFound.
func (s *Service) List(ctx context.Context, q Query) (httpx.Page[Gallery], error) {
	page := httpx.Page[Gallery]{List: []Gallery{}, PageNumber: q.PageNumber, PageSize: q.PageSize}
	var where db.Where
	where.And("g.published = 1")
	if q.SubModuleID != 0 {
		if err := s.checkImagesModule(ctx, s.db, q.SubModuleID, true); err != nil {
			return page, err
		}
		where.And("g.sub_module_id = ?", q.SubModuleID)
	}
	if q.ModuleID != 0 {
		if err := s.checkImagesModule(ctx, s.db, q.ModuleID, false); err != nil {
			return page, err
		}
		where.And("g.module_id = ?", q.ModuleID)
	}
	if q.VIP {
		where.And("g.vip_level > 0")
	}
	cond, args := where.Clause(), where.Args()
	if err := s.db.QueryRow(ctx, "SELECT COUNT(*) FROM galleries g"+cond, args...).Scan(&page.Total); err != nil {
		return page, err
	}
	offset := (q.PageNumber - 1) * q.PageSize
	list, err := db.All(ctx, s.db, scanGallery, "SELECT "+galleryCols+galleryFrom+cond+
		" ORDER BY g.created_at DESC, g.id DESC LIMIT ? OFFSET ?", append(args, q.PageSize, offset)...)
	if err != nil {
		return page, err
	}
	if err := s.signCovers(ctx, list); err != nil {
		return page, err
	}
	page.List = list
	page.HasMore = offset+len(list) < page.Total
	return page, nil
}

// checkImagesModule is db.ErrNotFound unless id is a module of type 3 at
// the level asked (sub: a sub-module; else a top-level module).
func (s *Service) checkImagesModule(ctx context.Context, q db.Querier, id int64, sub bool) error {
	if s.Modules == nil {
		return errNoModules
	}
	pid, typ, err := s.Modules(ctx, q, id)
	if err != nil {
		return err
	}
	if typ != ImagesModuleType || (pid != 0) != sub {
		return db.ErrNotFound
	}
	return nil
}

func galleryByID(ctx context.Context, q db.Querier, id int64, publishedOnly bool) (Gallery, error) {
	cond := " WHERE g.id = ?"
	if publishedOnly {
		cond += " AND g.published = 1"
	}
	g, err := scanGallery(q.QueryRow(ctx, "SELECT "+galleryCols+galleryFrom+cond, id))
	if err = db.NotFound(err); errors.Is(err, db.ErrNotFound) {
		return g, ErrNotFound
	}
	return g, err
}

// images is gallery id's pictures in order, each with its upload's size,
// placeholder and keys (one read for all).
func (s *Service) images(ctx context.Context, q db.Querier, id int64) ([]Image, error) {
	list, err := db.All(ctx, q, func(s db.Scanner) (Image, error) {
		var im Image
		err := s.Scan(&im.Position, &im.AssetID)
		return im, err
	}, `SELECT position, asset_id FROM gallery_images WHERE gallery_id = ? ORDER BY position`, id)
	if err != nil {
		return nil, err
	}
	ids := make([]int64, len(list))
	for i, im := range list {
		ids[i] = im.AssetID
	}
	assets, err := s.assets(ctx, q, ids)
	if err != nil {
		return nil, err
	}
	out := list[:0]
	for _, im := range list {
		a, ok := assets[im.AssetID]
		if !ok {
			continue // gallery_images reference uploads: never, but never a blank picture
		}
		im.Width, im.Height, im.Placeholder = a.Width, a.Height, a.Placeholder
		im.thumb, im.display, im.thumbWebP, im.displayWebP = a.ThumbKey, a.DisplayKey, a.ThumbWebP, a.DisplayWebP
		out = append(out, im)
	}
	return out, nil
}

// Detail is published gallery id as uid (0: nobody) sees it: every
// picture's URLs when access allows, else the first FreeImages and a
// paywall. ErrNotFound for an unknown or unpublished id.
func (s *Service) Detail(ctx context.Context, uid, id int64) (Detail, error) {
	g, err := galleryByID(ctx, s.db, id, true)
	if err != nil {
		return Detail{}, err
	}
	d := Detail{Gallery: g}
	if d.Access, err = s.access.CheckGallery(ctx, uid, membership.Video{ID: g.ID, VipLevel: g.VipLevel, Coins: g.Coins}); err != nil {
		return d, err
	}
	if !d.Access.Allowed {
		d.Paywall = &catalog.Paywall{Reason: d.Access.Reason, NeedVipLevel: d.Access.Unlock.VipLevel, Coins: d.Access.Unlock.Coins, Tip: tip(d.Access)}
	}
	if uid != 0 {
		var one int
		err := s.db.QueryRow(ctx, "SELECT 1 FROM gallery_collects WHERE user_id = ? AND gallery_id = ?", uid, id).Scan(&one)
		if err = db.NotFound(err); err != nil && !errors.Is(err, db.ErrNotFound) {
			return d, err
		}
		d.IsCollect = err == nil
	}
	if d.Images, err = s.images(ctx, s.db, id); err != nil {
		return d, err
	}
	gs := []Gallery{d.Gallery}
	if err := s.signCovers(ctx, gs); err != nil {
		return d, err
	}
	d.Gallery = gs[0]
	for i := range d.Images {
		im := &d.Images[i]
		if !d.Access.Allowed && i >= FreeImages {
			im.Locked = true
			continue
		}
		for _, p := range []struct {
			dst *string
			key string
		}{{&im.Thumb, im.thumb}, {&im.Display, im.display}, {&im.ThumbWebP, im.thumbWebP}, {&im.DisplayWebP, im.displayWebP}} {
			if *p.dst, err = s.sign(p.key); err != nil {
				return d, err
			}
		}
	}
	d.ExpiresAt = s.now().Add(URLTTL).UTC().Truncate(time.Second)
	return d, nil
}

// tip is the paywall line for a gallery (membership's lines speak of
// videos).
func tip(a membership.Access) string {
	switch a.Reason {
	case membership.ReasonLogin:
		return "登录后即可查看全部图片"
	case membership.ReasonNeedVIP:
		return "开通VIP会员即可查看全部图片"
	case membership.ReasonNeedSVIP:
		return "开通超级VIP即可查看全部图片"
	case membership.ReasonNeedCoins:
		return fmt.Sprintf("支付%d金币即可查看全部图片", a.Unlock.Coins)
	}
	return ""
}

// Collect sets whether uid has gallery id among their favourites.
// Repeating it changes nothing; the primary key makes racing requests one
// row (ON CONFLICT DO NOTHING waits for the other insert instead of failing).
func (s *Service) Collect(ctx context.Context, uid, id int64, on bool) error {
	return s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		var one int
		if err := db.NotFound(tx.QueryRow(ctx, "SELECT 1 FROM galleries WHERE id = ? AND published = 1", id).Scan(&one)); err != nil {
			if errors.Is(err, db.ErrNotFound) {
				return ErrNotFound
			}
			return err
		}
		var err error
		if on {
			_, err = tx.Exec(ctx, "INSERT INTO gallery_collects (user_id, gallery_id, created_at) VALUES (?, ?, ?) ON CONFLICT (user_id, gallery_id) DO NOTHING",
				uid, id, s.now().Unix())
		} else {
			_, err = tx.Exec(ctx, "DELETE FROM gallery_collects WHERE user_id = ? AND gallery_id = ?", uid, id)
		}
		return err
	})
}

// MineGallery is a favourite gallery with when it was collected.
type MineGallery struct {
	Gallery
	At time.Time `json:"at"`
}

// Collected lists one page of uid's favourite published galleries, most
// recently collected first.
func (s *Service) Collected(ctx context.Context, uid int64, pageNumber, pageSize int) (httpx.Page[MineGallery], error) {
	page := httpx.Page[MineGallery]{List: []MineGallery{}, PageNumber: pageNumber, PageSize: pageSize}
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM gallery_collects c JOIN galleries g ON g.id = c.gallery_id
		WHERE c.user_id = ? AND g.published = 1`, uid).Scan(&page.Total); err != nil {
		return page, err
	}
	offset := (pageNumber - 1) * pageSize
	list, err := db.All(ctx, s.db, func(sc db.Scanner) (MineGallery, error) {
		var m MineGallery
		var at int64
		g, err := scanGallery(scanPlus{sc, &at})
		m.Gallery, m.At = g, time.Unix(at, 0).UTC()
		return m, err
	}, "SELECT "+galleryCols+", c.created_at"+galleryFrom+` JOIN gallery_collects c ON c.gallery_id = g.id
		WHERE c.user_id = ? AND g.published = 1 ORDER BY c.created_at DESC, g.id DESC LIMIT ? OFFSET ?`, uid, pageSize, offset)
	if err != nil {
		return page, err
	}
	gs := make([]Gallery, len(list))
	for i := range list {
		gs[i] = list[i].Gallery
	}
	if err := s.signCovers(ctx, gs); err != nil {
		return page, err
	}
	for i := range list {
		list[i].Gallery = gs[i]
	}
	page.List = list
	page.HasMore = offset+len(list) < page.Total
	return page, nil
}

// scanPlus scans one more column after what the wrapped scan asks for.
type scanPlus struct {
	s     db.Scanner
	extra any
}

func (p scanPlus) Scan(dst ...any) error { return p.s.Scan(append(dst, p.extra)...) }

// Edit is what an operator sets on a gallery; nil fields stay as they are.
type Edit struct {
	Title       *string
	SubModuleID *int64
	VipLevel    *int
	Coins       *int64
	Published   *bool
}

// validate checks the fields that are set.
func (e Edit) validate() error {
	switch {
	case e.Title != nil && (strings.TrimSpace(*e.Title) == "" || len([]rune(*e.Title)) > MaxTitle):
		return fmt.Errorf("%w: title must be 1..%d characters", ErrInvalidEdit, MaxTitle)
	case e.VipLevel != nil && (*e.VipLevel < 0 || *e.VipLevel > 2):
		return fmt.Errorf("%w: vipLevel must be 0, 1 or 2", ErrInvalidEdit)
	case e.Coins != nil && (*e.Coins < 0 || *e.Coins > MaxCoins):
		return fmt.Errorf("%w: coins must be 0..%d", ErrInvalidEdit, MaxCoins)
	}
	return nil
}

// parentOf is the module of images sub-module sub; ErrBadModule otherwise.
func (s *Service) parentOf(ctx context.Context, q db.Querier, sub int64) (int64, error) {
	if s.Modules == nil {
		return 0, errNoModules
	}
	pid, typ, err := s.Modules(ctx, q, sub)
	if errors.Is(err, db.ErrNotFound) || err == nil && (pid == 0 || typ != ImagesModuleType) {
		return 0, ErrBadModule
	}
	return pid, err
}

// checkAssets is nil when ids are 1..MaxImages distinct, ready pictures,
// read on q (one read for all).
func (s *Service) checkAssets(ctx context.Context, q db.Querier, ids []int64) error {
	if len(ids) == 0 || len(ids) > MaxImages {
		return fmt.Errorf("%w: %d, want 1..%d", ErrImageCount, len(ids), MaxImages)
	}
	assets, err := s.assets(ctx, q, ids)
	if err != nil {
		return err
	}
	seen := make(map[int64]bool, len(ids))
	for _, id := range ids {
		if seen[id] {
			return fmt.Errorf("%w: %d", ErrDuplicate, id)
		}
		seen[id] = true
		if a, ok := assets[id]; !ok || a.Kind != media.Image || a.State != media.Ready {
			return fmt.Errorf("%w: asset %d", ErrBadAsset, id)
		}
	}
	return nil
}

func setImages(ctx context.Context, tx *db.Tx, id int64, assets []int64) error {
	if _, err := tx.Exec(ctx, "DELETE FROM gallery_images WHERE gallery_id = ?", id); err != nil {
		return err
	}
	for i, a := range assets {
		if _, err := tx.Exec(ctx, "INSERT INTO gallery_images (gallery_id, position, asset_id) VALUES (?, ?, ?)", id, i, a); err != nil {
			return err
		}
	}
	_, err := tx.Exec(ctx, "UPDATE galleries SET image_count = ? WHERE id = ?", len(assets), id)
	return err
}

// NewGallery is what Create takes.
type NewGallery struct {
	Title       string
	SubModuleID int64
	VipLevel    int
	Coins       int64
	Published   bool
	Assets      []int64 // in order; the first is the cover
}

// Create makes a gallery from ready picture assets, audited as
// "gallery.create" (actor audit.CLI for the seed and the command line).
func (s *Service) Create(ctx context.Context, actor audit.Actor, in NewGallery) (int64, error) {
	if err := (Edit{Title: &in.Title, VipLevel: &in.VipLevel, Coins: &in.Coins}).validate(); err != nil {
		return 0, err
	}
	var id int64
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		mod, err := s.parentOf(ctx, tx, in.SubModuleID)
		if err != nil {
			return err
		}
		if err := s.checkAssets(ctx, tx, in.Assets); err != nil {
			return err
		}
		now := s.now().Unix()
		if err := tx.QueryRow(ctx, `INSERT INTO galleries (title, module_id, sub_module_id, vip_level, coins, published, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`, strings.TrimSpace(in.Title), mod, in.SubModuleID, in.VipLevel, in.Coins,
			db.BoolInt(in.Published), now, now).Scan(&id); err != nil {
			return err
		}
		if err := setImages(ctx, tx, id, in.Assets); err != nil {
			return err
		}
		if err := search.Touch(ctx, tx, search.KindGallery, id); err != nil {
			return err
		}
		return audit.Record(ctx, tx, audit.Entry{Actor: actor, Action: "gallery.create", TargetType: "gallery", TargetID: strconv.FormatInt(id, 10),
			After: map[string]any{"title": strings.TrimSpace(in.Title), "subModuleId": in.SubModuleID, "vipLevel": in.VipLevel,
				"coins": in.Coins, "published": in.Published, "images": in.Assets}})
	})
	return id, err
}

// Update changes the fields of e that are set, audited as "gallery.update"
// with the fields before and after. Setting what is already there changes
// nothing and records nothing.
func (s *Service) Update(ctx context.Context, actor audit.Actor, id int64, e Edit) (Gallery, error) {
	if err := e.validate(); err != nil {
		return Gallery{}, err
	}
	var g Gallery
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		var err error
		if g, err = lockGallery(ctx, tx, id); err != nil {
			return err
		}
		before, after := map[string]any{}, map[string]any{}
		if e.Title != nil && strings.TrimSpace(*e.Title) != g.Title {
			before["title"], after["title"] = g.Title, strings.TrimSpace(*e.Title)
			g.Title = strings.TrimSpace(*e.Title)
		}
		if e.SubModuleID != nil && *e.SubModuleID != g.SubModuleID {
			mod, err := s.parentOf(ctx, tx, *e.SubModuleID)
			if err != nil {
				return err
			}
			before["subModuleId"], after["subModuleId"] = g.SubModuleID, *e.SubModuleID
			g.ModuleID, g.SubModuleID = mod, *e.SubModuleID
		}
		if e.VipLevel != nil && *e.VipLevel != g.VipLevel {
			before["vipLevel"], after["vipLevel"] = g.VipLevel, *e.VipLevel
			g.VipLevel = *e.VipLevel
		}
		if e.Coins != nil && *e.Coins != g.Coins {
			before["coins"], after["coins"] = g.Coins, *e.Coins
			g.Coins = *e.Coins
		}
		if e.Published != nil && *e.Published != g.Published {
			before["published"], after["published"] = g.Published, *e.Published
			g.Published = *e.Published
		}
		if len(after) == 0 {
			return nil
		}
		g.UpdatedAt = s.now().UTC().Truncate(time.Second)
		if _, err := tx.Exec(ctx, `UPDATE galleries SET title = ?, module_id = ?, sub_module_id = ?, vip_level = ?, coins = ?, published = ?, updated_at = ?
			WHERE id = ?`, g.Title, g.ModuleID, g.SubModuleID, g.VipLevel, g.Coins, db.BoolInt(g.Published), g.UpdatedAt.Unix(), id); err != nil {
			return err
		}
		if err := search.Touch(ctx, tx, search.KindGallery, id); err != nil {
			return err
		}
		action := "gallery.update"
		if len(after) == 1 && after["published"] != nil {
			action = "gallery.publish"
		}
		return audit.Record(ctx, tx, audit.Entry{Actor: actor, Action: action, TargetType: "gallery", TargetID: strconv.FormatInt(id, 10), Before: before, After: after})
	})
	if err != nil {
		return g, err
	}
	return s.adminGallery(ctx, id)
}

// SetImages replaces gallery id's pictures (a reorder is the same ids in
// a new order), audited as "gallery.images".
func (s *Service) SetImages(ctx context.Context, actor audit.Actor, id int64, assets []int64) (Gallery, error) {
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		if _, err := lockGallery(ctx, tx, id); err != nil {
			return err
		}
		if err := s.checkAssets(ctx, tx, assets); err != nil {
			return err
		}
		old, err := db.All(ctx, tx, func(s db.Scanner) (int64, error) {
			var a int64
			return a, s.Scan(&a)
		}, "SELECT asset_id FROM gallery_images WHERE gallery_id = ? ORDER BY position", id)
		if err != nil {
			return err
		}
		if slices.Equal(old, assets) {
			return nil
		}
		if err := setImages(ctx, tx, id, assets); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "UPDATE galleries SET updated_at = ? WHERE id = ?", s.now().Unix(), id); err != nil {
			return err
		}
		return audit.Record(ctx, tx, audit.Entry{Actor: actor, Action: "gallery.images", TargetType: "gallery", TargetID: strconv.FormatInt(id, 10),
			Before: map[string]any{"images": old}, After: map[string]any{"images": assets}})
	})
	if err != nil {
		return Gallery{}, err
	}
	return s.adminGallery(ctx, id)
}

func lockGallery(ctx context.Context, tx *db.Tx, id int64) (Gallery, error) {
	g, err := scanGallery(tx.QueryRow(ctx, "SELECT "+strings.ReplaceAll(galleryCols, "COALESCE(gi.asset_id, 0)", "0")+
		" FROM galleries g WHERE g.id = ?"+tx.ForUpdate(), id))
	if err = db.NotFound(err); errors.Is(err, db.ErrNotFound) {
		return g, ErrNotFound
	}
	return g, err
}

// adminGallery is gallery id, published or not, with its cover signed.
func (s *Service) adminGallery(ctx context.Context, id int64) (Gallery, error) {
	g, err := galleryByID(ctx, s.db, id, false)
	if err != nil {
		return g, err
	}
	gs := []Gallery{g}
	err = s.signCovers(ctx, gs)
	return gs[0], err
}

// AdminDetail is gallery id with every picture signed, published or not:
// what an operator checks before publishing.
func (s *Service) AdminDetail(ctx context.Context, id int64) (Detail, error) {
	g, err := s.adminGallery(ctx, id)
	if err != nil {
		return Detail{}, err
	}
	d := Detail{Gallery: g, Access: membership.Access{Allowed: true, Reason: "operator"}}
	if d.Images, err = s.images(ctx, s.db, id); err != nil {
		return d, err
	}
	for i := range d.Images {
		im := &d.Images[i]
		for _, p := range []struct {
			dst *string
			key string
		}{{&im.Thumb, im.thumb}, {&im.Display, im.display}, {&im.ThumbWebP, im.thumbWebP}, {&im.DisplayWebP, im.displayWebP}} {
			if *p.dst, err = s.sign(p.key); err != nil {
				return d, err
			}
		}
	}
	d.ExpiresAt = s.now().Add(URLTTL).UTC().Truncate(time.Second)
	return d, nil
}
