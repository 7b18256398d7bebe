package catalog

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
)

// The operator's pre-sale banners (GET/POST /api/admin/presale, POST
// /api/admin/presale/delete): the remote configuration's preSaleConfig,
// which POST /api/admin/source does not edit (its keys are the entry
// lists). The list is short (MaxPreSales), so it is read whole.

// MaxPreSales bounds the pre-sale banners.
const MaxPreSales = 50

// AdminPreSale is a pre-sale banner as the console sees it: type 1 cover,
// 2 float, 3 popup; status 1 before sale, 2 after sale; url the picture.
type AdminPreSale struct {
	ID     int64  `json:"id"`
	Type   int64  `json:"type"`
	Status int64  `json:"status"`
	URL    string `json:"url"`
	Sort   int64  `json:"sort"`
}

// PreSaleInput is POST /api/admin/presale. PictureID, when set, names an
// uploaded ready picture published as the banner's url (publishPicture);
// URL is then ignored.
type PreSaleInput struct {
	ID        *int64 `json:"id"`
	Type      int64  `json:"type"`
	Status    int64  `json:"status"`
	URL       string `json:"url"`
	PictureID *int64 `json:"pictureId"`
	Sort      int64  `json:"sort"`
}

func (in PreSaleInput) check() (PreSaleInput, error) {
	if in.Type < 1 || in.Type > 3 {
		return in, invalid("类型应为 1（封面）、2（浮窗）或 3（弹窗）", "type must be 1, 2 or 3")
	}
	if in.Status < 1 || in.Status > 2 {
		return in, invalid("状态应为 1（预售前）或 2（开售后）", "status must be 1 or 2")
	}
	var err error
	if in.PictureID != nil {
		if err := checkPictureID(*in.PictureID); err != nil {
			return in, err
		}
		in.URL = ""
	} else if in.URL, err = CheckImage("url", "图片", in.URL); err != nil {
		return in, err
	}
	return in, checkSort(in.Sort)
}

func (p AdminPreSale) fields() map[string]any {
	return map[string]any{"type": p.Type, "status": p.Status, "url": p.URL, "sort": p.Sort}
}

func scanPreSale(r db.Scanner) (AdminPreSale, error) {
	var p AdminPreSale
	err := r.Scan(&p.ID, &p.Type, &p.Status, &p.URL, &p.Sort)
	return p, err
}

// AdminPreSales lists every pre-sale banner in the app's order.
func (s *Service) AdminPreSales(ctx context.Context) ([]AdminPreSale, error) {
	return db.All(ctx, s.db, scanPreSale, "SELECT id, type, status, url, sort FROM presale_entries ORDER BY sort, id")
}

func lockPreSale(ctx context.Context, tx *db.Tx, id int64) (AdminPreSale, error) {
	p, err := scanPreSale(tx.QueryRow(ctx, "SELECT id, type, status, url, sort FROM presale_entries WHERE id = ?"+tx.ForUpdate(), id))
	if errors.Is(db.NotFound(err), db.ErrNotFound) {
		return p, ErrNoPreSale
	}
	return p, err
}

// SavePreSale creates (no id; at most MaxPreSales) or replaces banner
// in.ID, audited "presale.create" / "presale.update" (none when nothing
// changes).
func (s *Service) SavePreSale(ctx context.Context, actor audit.Actor, in PreSaleInput) (AdminPreSale, error) {
	in, err := in.check()
	if err != nil {
		return AdminPreSale{}, err
	}
	if in.PictureID != nil {
		var undo func()
		if in.URL, undo, err = s.publishPicture(ctx, *in.PictureID); err != nil {
			return AdminPreSale{}, err
		}
		defer func() { // a refused save leaves no published file behind
			if err != nil {
				undo()
			}
		}()
	}
	out := AdminPreSale{Type: in.Type, Status: in.Status, URL: in.URL, Sort: in.Sort}
	err = s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		tx.AfterCommit(s.Invalidate) // the public pages show it (pagecache)
		if in.ID == nil {
			var n int
			if err := tx.QueryRow(ctx, "SELECT COUNT(*) FROM presale_entries").Scan(&n); err != nil {
				return err
			}
			if n >= MaxPreSales {
				return invalid(fmt.Sprintf("预售横幅最多 %d 个", MaxPreSales), "too many pre-sale banners")
			}
			if err := tx.QueryRow(ctx, "INSERT INTO presale_entries (type, status, url, sort) VALUES (?, ?, ?, ?) RETURNING id",
				in.Type, in.Status, in.URL, in.Sort).Scan(&out.ID); err != nil {
				return err
			}
			return audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: "presale.create", TargetType: "presale",
				TargetID: strconv.FormatInt(out.ID, 10), After: out.fields()}, s.now())
		}
		before, err := lockPreSale(ctx, tx, *in.ID)
		if err != nil {
			return err
		}
		out.ID = before.ID
		b, a := changed(before.fields(), out.fields())
		if len(a) == 0 {
			return nil
		}
		if _, err := tx.Exec(ctx, "UPDATE presale_entries SET type = ?, status = ?, url = ?, sort = ? WHERE id = ?",
			out.Type, out.Status, out.URL, out.Sort, out.ID); err != nil {
			return err
		}
		return audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: "presale.update", TargetType: "presale",
			TargetID: strconv.FormatInt(out.ID, 10), Before: b, After: a}, s.now())
	})
	return out, err
}

// DeletePreSale removes banner id, audited "presale.delete".
func (s *Service) DeletePreSale(ctx context.Context, actor audit.Actor, id int64) error {
	return s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		tx.AfterCommit(s.Invalidate) // the public pages show it (pagecache)
		p, err := lockPreSale(ctx, tx, id)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "DELETE FROM presale_entries WHERE id = ?", id); err != nil {
			return err
		}
		return audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: "presale.delete", TargetType: "presale",
			TargetID: strconv.FormatInt(id, 10), Before: p.fields()}, s.now())
	})
}

// Handlers.

// AdminPreSales answers GET /api/admin/presale -> {list}.
func (h *Handler) AdminPreSales(w http.ResponseWriter, r *http.Request) error {
	list, err := h.s.AdminPreSales(r.Context())
	if err != nil {
		return err
	}
	return httpx.OK(w, map[string]any{"list": list, "max": MaxPreSales})
}

// AdminSavePreSale answers POST /api/admin/presale.
func (h *Handler) AdminSavePreSale(w http.ResponseWriter, r *http.Request) error {
	var in PreSaleInput
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	if in.ID != nil {
		if _, err := httpx.BodyID(in.ID); err != nil {
			return err
		}
	}
	p, err := h.s.SavePreSale(r.Context(), audit.ActorFrom(r), in)
	if err != nil {
		return bannerErrs.Map(err)
	}
	return httpx.OK(w, p)
}

// AdminDeletePreSale answers POST /api/admin/presale/delete {id}.
func (h *Handler) AdminDeletePreSale(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.DecodeID(w, r)
	if err != nil {
		return err
	}
	if err := h.s.DeletePreSale(r.Context(), audit.ActorFrom(r), id); err != nil {
		return bannerErrs.Map(err)
	}
	return httpx.OK(w, map[string]int64{"id": id})
}
