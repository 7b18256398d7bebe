package rewards

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
	"prima/internal/wallet"
)

// WelfareHandler serves the welfare calls (docs/api.md, *Welfare*).
type WelfareHandler struct{ s *Welfare }

// NewWelfareHandler returns the handlers of s.
func NewWelfareHandler(s *Welfare) *WelfareHandler { return &WelfareHandler{s: s} }

// Checkin is GET /api/app/active/checkin.
func (h *WelfareHandler) Checkin(w http.ResponseWriter, r *http.Request) error {
	st, err := h.s.Checkin(r.Context(), httpx.UserID(r.Context()))
	if err != nil {
		return welfareErrs.Map(err)
	}
	return httpx.OK(w, st)
}

// CheckIn is POST /api/app/active/checkin (empty object body).
func (h *WelfareHandler) CheckIn(w http.ResponseWriter, r *http.Request) error {
	var body struct{}
	if err := httpx.Decode(w, r, &body); err != nil {
		return err
	}
	res, err := h.s.CheckIn(r.Context(), httpx.UserID(r.Context()))
	if err != nil {
		return welfareErrs.Map(err)
	}
	return httpx.OK(w, res)
}

// Tasks is GET /api/app/active/task.
func (h *WelfareHandler) Tasks(w http.ResponseWriter, r *http.Request) error {
	list, err := h.s.Tasks(r.Context(), httpx.UserID(r.Context()))
	if err != nil {
		return welfareErrs.Map(err)
	}
	return httpx.OK(w, list)
}

// Receive is POST /api/app/active/task/receive {id}.
func (h *WelfareHandler) Receive(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.DecodeID(w, r)
	if err != nil {
		return err
	}
	res, err := h.s.Claim(r.Context(), httpx.UserID(r.Context()), id)
	if err != nil {
		return welfareErrs.Map(err)
	}
	return httpx.OK(w, res)
}

// Prizes is GET /api/app/active/point/prize.
func (h *WelfareHandler) Prizes(w http.ResponseWriter, r *http.Request) error {
	p, err := h.s.Prizes(r.Context(), httpx.UserID(r.Context()))
	if err != nil {
		return welfareErrs.Map(err)
	}
	return httpx.OK(w, p)
}

// Exchange is POST /api/app/active/point/prize {id, idempotencyKey}.
func (h *WelfareHandler) Exchange(w http.ResponseWriter, r *http.Request) error {
	var body struct {
		ID             *int64 `json:"id"`
		IdempotencyKey string `json:"idempotencyKey"`
	}
	if err := httpx.Decode(w, r, &body); err != nil {
		return err
	}
	id, err := httpx.BodyID(body.ID)
	if err != nil {
		return err
	}
	key, err := wallet.KeyFrom(r, body.IdempotencyKey)
	if err != nil {
		return err
	}
	res, err := h.s.Exchange(r.Context(), httpx.UserID(r.Context()), id, key)
	if err != nil {
		return welfareErrs.Map(err)
	}
	return httpx.OK(w, res)
}

// Records is GET /api/app/active/point/records?pageNumber&pageSize.
func (h *WelfareHandler) Records(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	num, size := httpx.PageParams(q, 20)
	if err := q.Err(); err != nil {
		return err
	}
	p, err := h.s.Records(r.Context(), httpx.UserID(r.Context()), num, size)
	if err != nil {
		return welfareErrs.Map(err)
	}
	return httpx.OK(w, p)
}

// audited runs fn in a transaction with its audit row.
func (h *WelfareHandler) audited(r *http.Request, action, target, id string, after any, fn func(ctx context.Context, tx *db.Tx) error) error {
	actor := audit.ActorFrom(r)
	return h.s.db.Tx(r.Context(), func(ctx context.Context, tx *db.Tx) error {
		if err := fn(ctx, tx); err != nil {
			return err
		}
		return audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: action, TargetType: target, TargetID: id, After: after}, h.s.Now())
	})
}

// AdminCycle is GET /api/admin/rewards/checkin.
func (h *WelfareHandler) AdminCycle(w http.ResponseWriter, r *http.Request) error {
	c, err := h.s.Cycle(r.Context(), h.s.db)
	if err != nil {
		return err
	}
	return httpx.OK(w, map[string]any{"days": c})
}

// AdminSetCycle is POST /api/admin/rewards/checkin {days: [7 × {points, coins}]}.
func (h *WelfareHandler) AdminSetCycle(w http.ResponseWriter, r *http.Request) error {
	var body struct {
		Days []DayReward `json:"days"`
	}
	if err := httpx.Decode(w, r, &body); err != nil {
		return err
	}
	if len(body.Days) != CycleDays {
		return httpx.Invalid("需要 7 天的奖励", fmt.Sprintf("days must list %d rewards", CycleDays))
	}
	var c [CycleDays]DayReward
	copy(c[:], body.Days)
	err := h.audited(r, "rewards.checkin", "checkin_cycle", "", c, func(ctx context.Context, tx *db.Tx) error {
		return h.s.SetCycle(ctx, tx, c)
	})
	if err != nil {
		return welfareErrs.Map(err)
	}
	return httpx.OK(w, map[string]any{"days": c})
}

// AdminTasks is GET /api/admin/rewards/tasks.
func (h *WelfareHandler) AdminTasks(w http.ResponseWriter, r *http.Request) error {
	list, err := h.s.AdminTasks(r.Context())
	if err != nil {
		return err
	}
	return httpx.OK(w, list)
}

// AdminSaveTask is POST /api/admin/rewards/tasks: a TaskDef, id 0 or
// absent creates; active false deactivates.
func (h *WelfareHandler) AdminSaveTask(w http.ResponseWriter, r *http.Request) error {
	var d TaskDef
	if err := httpx.Decode(w, r, &d); err != nil {
		return err
	}
	if d.ID < 0 || d.ID > httpx.MaxID {
		return httpx.Invalid("参数 id 无效", "id must be 0 (new) or a task id")
	}
	var id int64
	err := h.audited(r, "rewards.task", "welfare_task", strconv.FormatInt(d.ID, 10), d, func(ctx context.Context, tx *db.Tx) (err error) {
		id, err = h.s.SaveTask(ctx, tx, d, h.s.Now())
		return err
	})
	if err != nil {
		return welfareErrs.Map(err)
	}
	return httpx.OK(w, map[string]int64{"id": id})
}

// AdminPrizes is GET /api/admin/rewards/prizes.
func (h *WelfareHandler) AdminPrizes(w http.ResponseWriter, r *http.Request) error {
	list, err := h.s.AdminPrizes(r.Context())
	if err != nil {
		return err
	}
	return httpx.OK(w, list)
}

// AdminSavePrize is POST /api/admin/rewards/prizes: a Prize, id 0 or
// absent creates; active false deactivates.
func (h *WelfareHandler) AdminSavePrize(w http.ResponseWriter, r *http.Request) error {
	var body struct {
		Prize
		// StockBefore is the stock the editor showed (null: unlimited);
		// given, the save holds only while the stock is still that.
		StockBefore json.RawMessage `json:"stockBefore"`
	}
	if err := httpx.Decode(w, r, &body); err != nil {
		return err
	}
	p := body.Prize
	if p.ID < 0 || p.ID > httpx.MaxID {
		return httpx.Invalid("参数 id 无效", "id must be 0 (new) or a prize id")
	}
	var seen *StockSeen
	if len(body.StockBefore) > 0 {
		var n *int64
		if err := json.Unmarshal(body.StockBefore, &n); err != nil || (n != nil && *n < 0) {
			return httpx.Invalid("参数 stockBefore 无效", "stockBefore must be null (unlimited) or the stock shown")
		}
		seen = &StockSeen{Unlimited: n == nil}
		if n != nil {
			seen.Stock = *n
		}
	}
	var id int64
	err := h.audited(r, "rewards.prize", "point_prize", strconv.FormatInt(p.ID, 10), p, func(ctx context.Context, tx *db.Tx) (err error) {
		id, err = h.s.SavePrizeSeen(ctx, tx, p, seen, h.s.Now())
		return err
	})
	if err != nil {
		return welfareErrs.Map(err)
	}
	return httpx.OK(w, map[string]int64{"id": id})
}
