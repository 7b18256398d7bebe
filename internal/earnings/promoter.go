package earnings

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"prima/internal/messaging"
	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
	"prima/internal/platform/ratelimit"
)

// Promoter application states; a user who never applied is AppNone.
const (
	AppNone     = "none"
	AppPending  = "pending"
	AppApproved = "approved"
	AppRejected = "rejected"
)

// Tiers of commission rates.
const (
	TierMember   = "member"
	TierPromoter = "promoter"
)

// ApplyRate bounds promoter applications per user: each is read by a
// person. The limiter failing lets them through (nothing of value moves).
var ApplyRate = struct {
	N   int
	Per time.Duration
}{5, 24 * time.Hour}

// PromoterInput is POST /api/app/mine/promoter/apply.
type PromoterInput struct {
	Channel string `json:"channel"`
	Contact string `json:"contact"`
	Intro   string `json:"intro" text:"multiline"`
}

// checkField trims s and checks its length in characters and, unless
// multiline, that it is one line; no control characters either way.
func checkField(s, field string, min, max int, multiline bool) (string, error) {
	s = strings.TrimSpace(s)
	if n := utf8.RuneCountInString(s); n < min || n > max {
		return "", invalid(fmt.Sprintf("参数 %s 应为 %d 到 %d 个字", field, min, max), fmt.Sprintf("%s must be %d to %d characters", field, min, max))
	}
	if !utf8.ValidString(s) {
		return "", invalid("参数 "+field+" 含有无效字符", field+" is not UTF-8")
	}
	for _, c := range s {
		lineBreak := c == '\n' || c == '\r' || c == '\t'
		if (lineBreak && !multiline) || (!lineBreak && unicode.IsControl(c)) || c == 0xFFFE || c == 0xFFFF {
			return "", invalid("参数 "+field+" 含有不允许的控制字符或无效字符", field+" holds control characters")
		}
	}
	return s, nil
}

// CheckPromoterInput validates an application and returns it trimmed.
func CheckPromoterInput(in PromoterInput) (PromoterInput, error) {
	var err error
	if in.Channel, err = checkField(in.Channel, "channel", 1, 30, false); err != nil {
		return in, err
	}
	if in.Contact, err = checkField(in.Contact, "contact", 3, 50, false); err != nil {
		return in, err
	}
	if in.Intro, err = checkField(in.Intro, "intro", 0, 500, true); err != nil {
		return in, err
	}
	return in, nil
}

// Application is a promoter application. Users see channel, contact,
// intro and the times; operators everything (AdminApplication).
type Application struct {
	ID        int64      `json:"id"`
	UID       int64      `json:"uid"`
	Channel   string     `json:"channel"`
	Contact   string     `json:"contact"`
	Intro     string     `json:"intro"`
	State     string     `json:"state"`
	Reason    string     `json:"reason"`
	AppliedAt time.Time  `json:"appliedAt"`
	DecidedAt *time.Time `json:"decidedAt"`
}

// MyApplication is the caller's own application as the page shows it.
type MyApplication struct {
	Channel   string     `json:"channel"`
	Contact   string     `json:"contact"`
	Intro     string     `json:"intro"`
	AppliedAt time.Time  `json:"appliedAt"`
	DecidedAt *time.Time `json:"decidedAt"`
}

// Promoter is GET /api/app/mine/promoter.
type Promoter struct {
	State         string         `json:"state"`
	Reason        string         `json:"reason"`
	Application   *MyApplication `json:"application"`
	Tier          string         `json:"tier"`
	Rates         []int64        `json:"rates"`
	MemberRates   []int64        `json:"memberRates"`
	PromoterRates []int64        `json:"promoterRates"`
	SettleDays    int            `json:"settleDays"`
	PendingCents  int64          `json:"pendingCents"`
	SettledCents  int64          `json:"settledCents"`
	ReversedCents int64          `json:"reversedCents"`
	InviteCode    string         `json:"inviteCode"`
	Link          string         `json:"link"`
}

const appColumns = `id, user_id, channel, contact, intro, status, reason, created_at, decided_at`

func scanApp(r db.Scanner) (Application, error) {
	var (
		a                Application
		created, decided int64
	)
	err := r.Scan(&a.ID, &a.UID, &a.Channel, &a.Contact, &a.Intro, &a.State, &a.Reason, &created, &decided)
	a.AppliedAt = time.Unix(created, 0).UTC()
	if decided > 0 {
		t := time.Unix(decided, 0).UTC()
		a.DecidedAt = &t
	}
	return a, err
}

// latestApp is uid's newest application (db.ErrNotFound: none).
func latestApp(ctx context.Context, q db.Querier, uid int64) (Application, error) {
	a, err := scanApp(q.QueryRow(ctx, `SELECT `+appColumns+` FROM promoter_applications WHERE user_id = ? ORDER BY id DESC LIMIT 1`, uid))
	return a, db.NotFound(err)
}

// isPromoter reports whether uid's application was approved (approval is
// for good: an approved user cannot apply again).
func isPromoter(ctx context.Context, q db.Querier, uid int64) (bool, error) {
	var one int
	err := q.QueryRow(ctx, `SELECT 1 FROM promoter_applications WHERE user_id = ? AND status = 'approved' LIMIT 1`, uid).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// Promoter is uid's promoter page: the application's state, the rates of
// both tiers, the commission totals and the share link. Guests: ErrGuest.
func (s *Service) Promoter(ctx context.Context, uid int64) (Promoter, error) {
	if err := s.registered(ctx, s.db, uid); err != nil {
		return Promoter{}, err
	}
	cfg, err := loadConfig(ctx, s.db, false)
	if err != nil {
		return Promoter{}, err
	}
	out := Promoter{State: AppNone, Tier: TierMember, MemberRates: cfg.Levels, PromoterRates: cfg.PromoterLevels, SettleDays: cfg.SettleDays}
	a, err := latestApp(ctx, s.db, uid)
	switch {
	case err == nil:
		out.State = a.State
		if a.State == AppRejected {
			out.Reason = a.Reason
		}
		out.Application = &MyApplication{Channel: a.Channel, Contact: a.Contact, Intro: a.Intro, AppliedAt: a.AppliedAt, DecidedAt: a.DecidedAt}
	case !errors.Is(err, db.ErrNotFound):
		return Promoter{}, err
	}
	// A rejection after an approval cannot happen (approved users cannot
	// apply again), so the latest row says the tier.
	if out.State == AppApproved {
		out.Tier = TierPromoter
	}
	out.Rates = cfg.rates(out.Tier == TierPromoter)
	totals, err := db.All(ctx, s.db, func(r db.Scanner) (struct {
		state string
		sum   int64
	}, error) {
		var v struct {
			state string
			sum   int64
		}
		return v, r.Scan(&v.state, &v.sum)
	}, `SELECT state, COALESCE(SUM(amount), 0) FROM commissions WHERE user_id = ? GROUP BY state`, uid)
	if err != nil {
		return Promoter{}, err
	}
	for _, t := range totals {
		switch t.state {
		case StatePending:
			out.PendingCents = t.sum
		case StateSettled:
			out.SettledCents = t.sum
		case StateReversed:
			out.ReversedCents = t.sum
		}
	}
	if out.InviteCode, err = s.invites.Code(ctx, uid); err != nil {
		return Promoter{}, err
	}
	out.Link = s.link(out.InviteCode)
	return out, nil
}

// Apply files uid's promoter application: refused while one is pending
// (ErrPending) or once approved (ErrApproved); allowed after a rejection.
// Two parallel submissions make one pending row: the partial unique index
// refuses the second.
func (s *Service) Apply(ctx context.Context, uid int64, in PromoterInput) (Promoter, error) {
	in, err := CheckPromoterInput(in)
	if err != nil {
		return Promoter{}, err
	}
	if err := s.registered(ctx, s.db, uid); err != nil {
		return Promoter{}, err
	}
	if s.Limiter != nil {
		key := "earnings:apply:" + strconv.FormatInt(uid, 10)
		if err := ratelimit.Enforce(ctx, s.Limiter, key, ApplyRate.N, ApplyRate.Per, ratelimit.FailOpen); err != nil {
			return Promoter{}, err
		}
	}
	err = s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		a, err := latestApp(ctx, tx, uid)
		switch {
		case err == nil && a.State == AppPending:
			return ErrPending
		case err == nil && a.State == AppApproved:
			return ErrApproved
		case err != nil && !errors.Is(err, db.ErrNotFound):
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO promoter_applications (user_id, channel, contact, intro, status, created_at) VALUES (?, ?, ?, ?, 'pending', ?)`,
			uid, in.Channel, in.Contact, in.Intro, s.now().Unix())
		return err
	})
	if db.IsUnique(err) {
		return Promoter{}, ErrPending
	}
	if err != nil {
		return Promoter{}, err
	}
	return s.Promoter(ctx, uid)
}

// AdminApplication is an application as operators review it: the
// applicant's account and name unmasked, how many invitees they have and
// what those invitees paid (cents, refunds left out).
type AdminApplication struct {
	Application
	Account   string `json:"account"`
	Name      string `json:"name"`
	Invitees  int    `json:"invitees"`
	PaidCents int64  `json:"paidCents"`
}

// CheckAppState validates a state filter ("" = all).
func CheckAppState(st string) error {
	switch st {
	case "", AppPending, AppApproved, AppRejected:
		return nil
	}
	return invalid("参数 state 无效", "state must be pending, approved or rejected")
}

// AdminApplications is one page of applications in state ("" any): the
// review queue (pending) oldest first, the others newest first.
func (s *Service) AdminApplications(ctx context.Context, state string, num, size int) (httpx.Page[AdminApplication], error) {
	if err := CheckAppState(state); err != nil {
		return httpx.Page[AdminApplication]{}, err
	}
	var w db.Where
	if state != "" {
		w.And(`status = ?`, state)
	}
	order := "id DESC"
	if state == AppPending {
		order = "id"
	}
	var total int
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM promoter_applications`+w.Clause(), w.Args()...).Scan(&total); err != nil {
		return httpx.Page[AdminApplication]{}, err
	}
	apps, err := db.All(ctx, s.db, scanApp, `SELECT `+appColumns+` FROM promoter_applications`+w.Clause()+` ORDER BY `+order+` LIMIT ? OFFSET ?`,
		append(w.Args(), size, (num-1)*size)...)
	if err != nil {
		return httpx.Page[AdminApplication]{}, err
	}
	list, err := s.adminApps(ctx, apps)
	if err != nil {
		return httpx.Page[AdminApplication]{}, err
	}
	return httpx.NewPage(list, total, num, size), nil
}

// adminApps adds to apps what operators see beside them.
func (s *Service) adminApps(ctx context.Context, apps []Application) ([]AdminApplication, error) {
	uids := make([]int64, 0, len(apps))
	for _, a := range apps {
		uids = append(uids, a.UID)
	}
	people, err := s.people.People(ctx, uids)
	if err != nil {
		return nil, err
	}
	counts, err := s.invites.InviteeCounts(ctx, uids)
	if err != nil {
		return nil, err
	}
	paid := map[int64]int64{}
	if len(uids) > 0 {
		rows, err := db.All(ctx, s.db, func(r db.Scanner) ([2]int64, error) {
			var v [2]int64
			return v, r.Scan(&v[0], &v[1])
		}, `SELECT inviter_id, COALESCE(SUM(amount), 0) FROM invitee_orders WHERE refunded_at = 0 AND inviter_id IN (`+db.Placeholders(len(uids))+`)
			GROUP BY inviter_id`, anySlice(uids)...)
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			paid[r[0]] = r[1]
		}
	}
	out := make([]AdminApplication, len(apps))
	for i, a := range apps {
		p := people[a.UID]
		out[i] = AdminApplication{Application: a, Account: p.Account, Name: p.Name, Invitees: counts[a.UID], PaidCents: paid[a.UID]}
	}
	return out, nil
}

func anySlice(ids []int64) []any {
	out := make([]any, len(ids))
	for i, id := range ids {
		out[i] = id
	}
	return out
}

// Decide approves or rejects (with a reason, 1..200 characters) pending
// application id. One decided before is not touched: it is answered as
// it is with changed false. The change, its audit row
// ("promoter.approve"/"promoter.reject") and the user's notice (kind
// "promoter", ref the application id) are one transaction; two operators
// deciding at once make one decision.
func (s *Service) Decide(ctx context.Context, actor audit.Actor, id int64, approve bool, reason string) (AdminApplication, bool, error) {
	state, action := AppApproved, "promoter.approve"
	if approve {
		reason = ""
	} else {
		var err error
		if reason, err = checkField(reason, "reason", 1, 200, false); err != nil {
			return AdminApplication{}, false, err
		}
		state, action = AppRejected, "promoter.reject"
	}
	now := s.now()
	var (
		a       Application
		changed bool
	)
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		res, err := tx.Exec(ctx, `UPDATE promoter_applications SET status = ?, reason = ?, operator_id = ?, decided_at = ? WHERE id = ? AND status = 'pending'`,
			state, reason, actor.UID, now.Unix(), id)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return err
		}
		a, err = scanApp(tx.QueryRow(ctx, `SELECT `+appColumns+` FROM promoter_applications WHERE id = ?`, id))
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNoApplication
		}
		if err != nil || n == 0 {
			return err
		}
		changed = true
		if err := audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: action, TargetType: "promoter_application", TargetID: strconv.FormatInt(id, 10),
			Before: map[string]string{"state": AppPending}, After: map[string]any{"state": state, "reason": reason, "uid": a.UID}}, now); err != nil {
			return err
		}
		title, body := "推广员申请已通过", "恭喜！你已成为推广员，之后好友付费订单的佣金按推广员比例计算。"
		if !approve {
			title, body = "推广员申请未通过", "你的推广员申请未通过审核。原因："+reason+"。修改后可重新申请。"
		}
		return messaging.Notify(ctx, tx, s.Events, messaging.Notice{UserID: a.UID, Category: messaging.CategorySystem,
			Kind: "promoter", Title: title, Body: body, Ref: strconv.FormatInt(id, 10)}, now)
	})
	if err != nil {
		return AdminApplication{}, false, err
	}
	list, err := s.adminApps(ctx, []Application{a})
	if err != nil {
		return AdminApplication{}, false, err
	}
	return list[0], changed, nil
}
