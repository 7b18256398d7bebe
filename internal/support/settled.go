package support

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"
	"time"

	"prima/internal/messaging"
	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
)

// Creator application states. A user with no application is StateNone.
const (
	StateNone     = "none"
	StatePending  = "pending"
	StateApproved = "approved"
	StateRejected = "rejected"
)

// Categories a creator may apply under.
var Categories = []string{"video", "shortvideo", "gallery", "post", "other"}

// SettledInput is POST /api/app/mine/settled.
type SettledInput struct {
	Name     string `json:"name"`
	Contact  string `json:"contact"`
	Intro    string `json:"intro" text:"multiline"`
	Category string `json:"category"`
}

// Application is a creator application.
type Application struct {
	ID        int64     `json:"id"`
	Name      string    `json:"name"`
	Contact   string    `json:"contact"`
	Intro     string    `json:"intro"`
	Category  string    `json:"category"`
	Status    string    `json:"status"`
	Reason    string    `json:"reason"` // why it was rejected
	CreatedAt time.Time `json:"createdAt"`
	DecidedAt time.Time `json:"decidedAt,omitzero"`
	UserID    int64     `json:"uid,omitempty"` // operators only
}

// Settled is GET /api/app/mine/settled: the state and the latest
// application (null when none), and the categories to choose from.
type Settled struct {
	State       string       `json:"state"`
	Application *Application `json:"application"`
	Categories  []string     `json:"categories"`
}

// CheckSettled validates an application and returns it trimmed.
func CheckSettled(in SettledInput) (SettledInput, error) {
	var err error
	if in.Name, err = checkText(in.Name, "名称", 2, 20, false); err != nil {
		return in, err
	}
	if in.Contact, err = checkText(in.Contact, "联系方式", 3, 50, false); err != nil {
		return in, err
	}
	if in.Intro, err = checkText(in.Intro, "简介", 10, 500, true); err != nil {
		return in, err
	}
	for _, c := range Categories {
		if in.Category == c {
			return in, nil
		}
	}
	return in, invalid("请选择入驻类型", "category must be one of "+strings.Join(Categories, ", "))
}

const appColumns = `id, user_id, name, contact, intro, category, status, reason, created_at, decided_at`

func scanApp(r db.Scanner) (Application, error) {
	var a Application
	var created, decided int64
	err := r.Scan(&a.ID, &a.UserID, &a.Name, &a.Contact, &a.Intro, &a.Category, &a.Status, &a.Reason, &created, &decided)
	a.CreatedAt = time.Unix(created, 0).UTC()
	if decided > 0 {
		a.DecidedAt = time.Unix(decided, 0).UTC()
	}
	return a, err
}

// latest is uid's newest application (sql.ErrNoRows when none).
func latest(ctx context.Context, q db.Querier, uid int64) (Application, error) {
	return scanApp(q.QueryRow(ctx, `SELECT `+appColumns+` FROM creator_applications WHERE user_id = ? ORDER BY id DESC LIMIT 1`, uid))
}

// IsCreator reports whether uid's creator application was approved, read
// on q: earnings pays creator earnings to them (earnings.Creators, wired in
// internal/app) in the purchase's transaction. An approval is for good.
func IsCreator(ctx context.Context, q db.Querier, uid int64) (bool, error) {
	var one int
	err := q.QueryRow(ctx, `SELECT 1 FROM creator_applications WHERE user_id = ? AND status = 'approved' LIMIT 1`, uid).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// MySettled is uid's state.
func (s *Service) MySettled(ctx context.Context, uid int64) (Settled, error) {
	out := Settled{State: StateNone, Categories: Categories}
	a, err := latest(ctx, s.db, uid)
	if errors.Is(err, sql.ErrNoRows) {
		return out, nil
	}
	if err != nil {
		return out, err
	}
	a.UserID = 0
	out.State, out.Application = a.Status, &a
	return out, nil
}

// Apply files uid's application: refused (409) while one is pending or
// once approved; allowed after a rejection. Two parallel submissions make
// one pending row: the partial unique index refuses the second.
func (s *Service) Apply(ctx context.Context, uid int64, in SettledInput) (Settled, error) {
	in, err := CheckSettled(in)
	if err != nil {
		return Settled{}, err
	}
	if err := s.limit(ctx, "settled", uid, SettledRate); err != nil {
		return Settled{}, err
	}
	err = s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		a, err := latest(ctx, tx, uid)
		switch {
		case err == nil && a.Status == StatePending:
			return ErrPending
		case err == nil && a.Status == StateApproved:
			return ErrApproved
		case err != nil && !errors.Is(err, sql.ErrNoRows):
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO creator_applications (user_id, name, contact, intro, category, status, created_at) VALUES (?, ?, ?, ?, ?, 'pending', ?)`,
			uid, in.Name, in.Contact, in.Intro, in.Category, s.now().Unix())
		return err
	})
	if db.IsUnique(err) {
		return Settled{}, ErrPending
	}
	if err != nil {
		return Settled{}, err
	}
	return s.MySettled(ctx, uid)
}

// CheckAppStatus validates a status filter ("" = all).
func CheckAppStatus(st string) error {
	switch st {
	case "", StatePending, StateApproved, StateRejected:
		return nil
	}
	return invalid("参数 status 无效", "status must be pending, approved or rejected")
}

// AdminApplications is one page of applications of one status ("" any),
// oldest pending first is what a reviewer wants, so pending lists by id
// ascending and the others newest first. A keyset page after application
// id after (0 for the first), without a count or an offset (a walk of
// creator_applications_status or the primary key).
func (s *Service) AdminApplications(ctx context.Context, status string, after int64, size int) (httpx.KeyPage[Application], error) {
	var w db.Where
	order, cmp := "id DESC", "<"
	if status != "" {
		w.And("status = ?", status)
	}
	if status == StatePending {
		order, cmp = "id", ">"
	}
	if after > 0 {
		w.And("id "+cmp+" ?", after)
	}
	list, err := db.All(ctx, s.db, scanApp, `SELECT `+appColumns+` FROM creator_applications`+w.Clause()+` ORDER BY `+order+` LIMIT ?`,
		append(w.Args(), size+1)...)
	if err != nil {
		return httpx.KeyPage[Application]{}, err
	}
	return httpx.NewKeyPage(list, size, func(a Application) []int64 { return []int64{a.ID} }), nil
}

// Decide approves or rejects (with a reason) pending application id. One
// decided before is not touched: Decide answers it as it is with changed
// false. The change, its audit row and the user's notice (kind "settled",
// ref the application id) are one transaction.
func (s *Service) Decide(ctx context.Context, actor audit.Actor, id int64, approve bool, reason string) (Application, bool, error) {
	status, action := StateApproved, "settled.approve"
	if approve {
		reason = ""
	} else {
		var err error
		if reason, err = checkText(reason, "拒绝原因", 1, 200, false); err != nil {
			return Application{}, false, err
		}
		status, action = StateRejected, "settled.reject"
	}
	now := s.now()
	var (
		a       Application
		changed bool
	)
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		res, err := tx.Exec(ctx, `UPDATE creator_applications SET status = ?, reason = ?, operator_id = ?, decided_at = ? WHERE id = ? AND status = 'pending'`,
			status, reason, actor.UID, now.Unix(), id)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return err
		}
		a, err = scanApp(tx.QueryRow(ctx, `SELECT `+appColumns+` FROM creator_applications WHERE id = ?`, id))
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNoApplication
		}
		if err != nil || n == 0 {
			return err
		}
		changed = true
		if err := audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: action, TargetType: "creator_application", TargetID: strconv.FormatInt(id, 10),
			Before: map[string]string{"status": StatePending}, After: map[string]any{"status": status, "reason": reason, "uid": a.UserID}}, now); err != nil {
			return err
		}
		title, body := "入驻申请已通过", "恭喜！你的创作者入驻申请（"+a.Name+"）已通过审核。"
		if !approve {
			title, body = "入驻申请未通过", "你的创作者入驻申请（"+a.Name+"）未通过审核。原因："+reason+"。修改后可重新申请。"
		}
		return messaging.Notify(ctx, tx, s.Events, messaging.Notice{UserID: a.UserID, Category: messaging.CategorySystem,
			Kind: "settled", Title: title, Body: body, Ref: strconv.FormatInt(id, 10)}, now)
	})
	if err != nil {
		return Application{}, false, err
	}
	return a, changed, nil
}
