package rewards

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"prima/internal/messaging"
	"prima/internal/platform/audit"
	"prima/internal/platform/days"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
	"prima/internal/platform/ratelimit"
	"prima/internal/platform/realtime"
	"prima/internal/wallet"
)

// Invitations: every user has a code; a new user binds an inviter once,
// ever; the inviter earns coins once the invitee has registered (an
// account and password) and shows the real sign the operator chose
// (earnings' inviteReward: a bound phone, or a first paid order; "off",
// the default, pays nothing), because a guest, and even an account, costs
// nothing to mint. Abuse limits: one rewarded invitee per device, a daily
// cap of rewarded invitees per inviter, a rate limit on bind attempts, a
// bind window after the invitee's account is made.

// InvitePerson is how a user is shown on the invite pages.
type InvitePerson struct {
	UID      int64  `json:"uid"`
	Name     string `json:"name"`
	Portrait string `json:"portrait"`
}

// InvitePeople looks users up through the account rules (names,
// portraits as the client shows them). Missing uids are left out.
// Joined and FirstDevice read the invitee on q, the binding's own
// transaction when there is one: when uid was created and whether it has
// an account (db.ErrNotFound for no such user), and the device it first
// appeared on ("" when none).
type InvitePeople interface {
	InvitePeople(ctx context.Context, uids []int64) (map[int64]InvitePerson, error)
	Joined(ctx context.Context, q db.Querier, uid int64) (created int64, registered bool, err error)
	FirstDevice(ctx context.Context, q db.Querier, uid int64) (string, error)
}

// Invites applies the invitation rules.
type Invites struct {
	db     *db.DB
	wallet Granter
	people InvitePeople
	// Limiter throttles bind attempts (nil: no limit, for tests).
	Limiter ratelimit.Limiter
	// Events carries the inviter's notice to their open apps (nil: none).
	Events realtime.Publisher
	// PublicURL prefixes share links; empty leaves them relative and the
	// client puts its own origin in front.
	PublicURL string
	// Contributions fill the invitee list's paid and commission columns
	// (earnings implements it, wired in internal/app); nil leaves them 0.
	Contributions Contributions
	// Trigger is when the sign-up coins are paid (earnings.InviteReward,
	// wired in internal/app); nil is RewardOff.
	Trigger RewardTrigger
	// Signs count the invitee's signs the trigger waits for, on the
	// transaction that may pay (account.PhoneBound, wallet.PaidOrdersSince,
	// wired in internal/app).
	Signs Signs
	now   func() time.Time
}

// When the sign-up coins of an invitation are paid (the operator's choice,
// earnings' commission settings).
const (
	RewardOff     = "off"
	RewardPhone   = "phone"
	RewardPayment = "payment"
)

// RewardTrigger reads the operator's choice on q.
type RewardTrigger func(ctx context.Context, q db.Querier) (string, error)

// Signs count what an invitee did: a bound phone (1 or 0) and paid orders.
type Signs struct {
	Phone, Paid Counter
}

// trigger is the operator's choice now, RewardOff when none is wired.
func (s *Invites) trigger(ctx context.Context, q db.Querier) (string, error) {
	if s.Trigger == nil {
		return RewardOff, nil
	}
	return s.Trigger(ctx, q)
}

// Contributions are what each of inviter's invitees paid (cents, refunds
// left out) and what inviter earned from them in commission (cents, not
// reversed).
type Contributions func(ctx context.Context, inviter int64, invitees []int64) (paid, commission map[int64]int64, err error)

// NewInvites returns the invitation service over d, rewarding through w,
// throttling binds with limiter, telling inviters through events and
// prefixing share links with publicURL.
func NewInvites(d *db.DB, w Granter, people InvitePeople, limiter ratelimit.Limiter, events realtime.Publisher, publicURL string) *Invites {
	return &Invites{db: d, wallet: w, people: people, Limiter: limiter, Events: events, PublicURL: publicURL, now: time.Now}
}

// BindRate bounds bind attempts per user: enough for typos, too few to
// guess codes (31^6 of them).
var BindRate = struct {
	N   int
	Per time.Duration
}{10, 10 * time.Minute}

// Errors of the invite calls; each changes nothing. inviteErrs answers
// them.
var (
	// ErrUnknownCode: no user has this invite code (404).
	ErrUnknownCode = errors.New("rewards: no user has this invite code")
	// ErrSelfInvite: the code is the caller's own (422).
	ErrSelfInvite = errors.New("rewards: the code is the caller's own")
	// ErrBound: the caller already has an inviter (409).
	ErrBound = errors.New("rewards: the caller already has an inviter")
	// ErrCycle: the code's owner was invited by the caller, directly or
	// not (422).
	ErrCycle = errors.New("rewards: the code's owner was invited by the caller")
	// ErrWindow: the caller's account is older than the bind window (403).
	ErrWindow = errors.New("rewards: past the bind window")
	// ErrBadCode: not 6 to 8 letters and digits (422).
	ErrBadCode = errors.New("rewards: malformed invite code")
	// ErrBadInviteConfig: an operator's setting out of range (422); the
	// error's Detail names it.
	ErrBadInviteConfig = errors.New("rewards: bad invite settings")
)

// refused lists the errors by which the bind rules refuse: a guest's
// clipboard code refused by one of them leaves the guest unbound.
var refused = []error{ErrUnknownCode, ErrSelfInvite, ErrBound, ErrCycle, ErrWindow, ErrBadCode}

// inviteCodeLen is an invite code's length: 31^6 codes, short enough to
// read out. Its characters are CodeAlphabet's (codes.go).
const inviteCodeLen = 6

// NormalizeInviteCode upper-cases s and says whether it is a well-formed
// invite code.
func NormalizeInviteCode(s string) (string, bool) {
	s = strings.ToUpper(strings.TrimSpace(s))
	if len(s) < 6 || len(s) > 8 {
		return "", false
	}
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(CodeAlphabet, s[i]) < 0 {
			return "", false
		}
	}
	return s, true
}

// CodeFromText finds an invite code in clipboard text: "ic=CODE" on its
// own or inside a link (?ic=, &ic=, #ic=), or the whole text being a code.
func CodeFromText(text string) (string, bool) {
	lower := strings.ToLower(text)
	for from := 0; ; {
		i := strings.Index(lower[from:], "ic=")
		if i < 0 {
			break
		}
		i += from
		from = i + 3
		if i > 0 && !strings.ContainsRune("?&# \t\n\r;,", rune(text[i-1])) {
			continue
		}
		j := from
		for j < len(text) && j-from < 9 && isAlnum(text[j]) {
			j++
		}
		if c, ok := NormalizeInviteCode(text[from:j]); ok {
			return c, true
		}
	}
	return NormalizeInviteCode(text)
}

func isAlnum(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

// InviteConfig is the operator's settings.
type InviteConfig struct {
	RewardCoins int64  `json:"rewardCoins"` // per registered invitee; 0 turns rewards off
	WindowDays  int    `json:"windowDays"`  // a user may bind within this many days of joining
	DailyCap    int    `json:"dailyCap"`    // rewarded invitees per inviter per Shanghai day
	Rules       string `json:"rules"`       // shown on the share page, one rule a line
}

// CheckInviteConfig validates an operator's settings.
func CheckInviteConfig(c InviteConfig) error {
	bad := func(tip, msg string) error { return httpx.Refuse(ErrBadInviteConfig, tip, msg) }
	switch {
	case c.RewardCoins < 0:
		return bad("奖励金币不能为负", "rewardCoins < 0")
	case c.RewardCoins > 0 && wallet.CheckReward(wallet.Reward{Coins: c.RewardCoins}) != nil:
		return bad("奖励金币过大", "rewardCoins over the reward limit")
	case c.WindowDays < 1 || c.WindowDays > 365:
		return bad("绑定期限为 1 到 365 天", "windowDays outside 1..365")
	case c.DailyCap < 1 || c.DailyCap > 10000:
		return bad("每日上限为 1 到 10000", "dailyCap outside 1..10000")
	case utf8.RuneCountInString(c.Rules) > 2000:
		return bad("规则说明过长", "rules over 2000 characters")
	}
	return nil
}

// InviteInfo is POST /api/app/userinvite/info's answer.
type InviteInfo struct {
	Code            string        `json:"code"`
	Link            string        `json:"link"`
	InviteCount     int           `json:"inviteCount"`
	RegisteredCount int           `json:"registeredCount"`
	TodayCount      int           `json:"todayCount"`
	WeekCount       int           `json:"weekCount"`
	RewardedCoins   int64         `json:"rewardedCoins"`
	RewardCoins     int64         `json:"rewardCoins"` // 0 while RewardOn is "off"
	RewardOn        string        `json:"rewardOn"`    // "off", "phone" or "payment"
	WindowDays      int           `json:"windowDays"`
	Inviter         *InvitePerson `json:"inviter"`
	CanBind         bool          `json:"canBind"`
	Rules           []string      `json:"rules"`
}

// Invitee is one row of the invitee list.
type Invitee struct {
	UID         int64     `json:"uid"`
	Name        string    `json:"name"`
	Portrait    string    `json:"portrait"`
	BoundAt     time.Time `json:"boundAt"`
	Registered  bool      `json:"registered"`
	RewardState string    `json:"rewardState"`
	RewardCoins int64     `json:"rewardCoins"`
	// PaidCents is what the invitee paid in orders; CommissionCents what
	// the inviter earned from those orders.
	PaidCents       int64 `json:"paidCents"`
	CommissionCents int64 `json:"commissionCents"`
}

// Code is uid's invite code, made on first ask.
func (s *Invites) Code(ctx context.Context, uid int64) (string, error) {
	code, err := codeOf(ctx, s.db, uid)
	if !errors.Is(err, db.ErrNotFound) {
		return code, err
	}
	// A new code can collide with another user's (31^6 codes); the insert
	// then does nothing and another code is tried.
	for attempt := 0; attempt < 8; attempt++ {
		c, err := randomCode(inviteCodeLen)
		if err != nil {
			return "", err
		}
		err = s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
			if _, err := tx.Exec(ctx, `INSERT INTO invite_codes (user_id, code, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`,
				uid, c, s.now().Unix()); err != nil {
				return err
			}
			code, err = codeOf(ctx, tx, uid)
			return err
		})
		if !errors.Is(err, db.ErrNotFound) {
			return code, err
		}
	}
	return "", fmt.Errorf("invite code for %d: %w", uid, err)
}

// Info is the caller's invite page: code, link, counts, inviter, rules.
func (s *Invites) Info(ctx context.Context, uid int64) (InviteInfo, error) {
	code, err := s.Code(ctx, uid)
	if err != nil {
		return InviteInfo{}, err
	}
	cfg, err := loadConfig(ctx, s.db, false)
	if err != nil {
		return InviteInfo{}, err
	}
	now := s.now()
	day := days.Start(now)
	week := day.AddDate(0, 0, -((int(day.Weekday()) + 6) % 7)) // Monday
	st, err := inviteStats(ctx, s.db, uid, day.Unix(), week.Unix())
	if err != nil {
		return InviteInfo{}, err
	}
	on, err := s.trigger(ctx, s.db)
	if err != nil {
		return InviteInfo{}, err
	}
	out := InviteInfo{
		Code: code, Link: strings.TrimRight(s.PublicURL, "/") + "/?ic=" + code,
		InviteCount: st.total, RegisteredCount: st.registered, TodayCount: st.today, WeekCount: st.week,
		RewardedCoins: st.coins, RewardCoins: cfg.RewardCoins, RewardOn: on, WindowDays: cfg.WindowDays, Rules: []string{},
	}
	if on == RewardOff {
		out.RewardCoins = 0
	}
	for _, l := range strings.Split(cfg.Rules, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out.Rules = append(out.Rules, l)
		}
	}
	inviter, err := inviterOf(ctx, s.db, uid)
	switch {
	case err == nil:
		people, err := s.people.InvitePeople(ctx, []int64{inviter})
		if err != nil {
			return InviteInfo{}, err
		}
		p, ok := people[inviter]
		if !ok {
			p = InvitePerson{UID: inviter}
		}
		out.Inviter = &p
	case errors.Is(err, db.ErrNotFound):
		created, _, err := s.people.Joined(ctx, s.db, uid)
		if err != nil {
			return InviteInfo{}, err
		}
		out.CanBind = now.Unix()-created <= int64(cfg.WindowDays)*86400
	default:
		return InviteInfo{}, err
	}
	return out, nil
}

// Bind makes code's owner uid's inviter (POST /api/app/mine/inviteBind).
func (s *Invites) Bind(ctx context.Context, uid int64, code string) (InvitePerson, error) {
	c, ok := NormalizeInviteCode(code)
	if !ok {
		return InvitePerson{}, ErrBadCode
	}
	if s.Limiter != nil {
		err := ratelimit.Enforce(ctx, s.Limiter, "invite:bind:"+strconv.FormatInt(uid, 10), BindRate.N, BindRate.Per, ratelimit.FailOpen)
		if err != nil {
			return InvitePerson{}, err
		}
	}
	var inviter int64
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		var err error
		inviter, err = s.bind(ctx, tx, uid, c, "code")
		return err
	})
	if err != nil {
		return InvitePerson{}, err
	}
	people, err := s.people.InvitePeople(ctx, []int64{inviter})
	if err != nil {
		return InvitePerson{}, err
	}
	if p, ok := people[inviter]; ok {
		return p, nil
	}
	return InvitePerson{UID: inviter}, nil
}

// GuestCreated binds a new guest to the inviter its clipboard text names
// (cutInfos at first launch), inside the guest's creation. Text without a
// code, or a code the rules refuse, leaves the guest unbound and the
// login goes on: the clipboard is a hint, not a request.
func (s *Invites) GuestCreated(ctx context.Context, tx *db.Tx, uid int64, cutInfos string) error {
	code, ok := CodeFromText(cutInfos)
	if !ok {
		return nil
	}
	_, err := s.bind(ctx, tx, uid, code, "clipboard")
	for _, r := range refused {
		if errors.Is(err, r) {
			return nil
		}
	}
	return err
}

// Registered records that uid, an invitee, registered (an account and
// password), inside the registration's transaction, and pays the inviter
// if the sign the operator waits for is there already.
func (s *Invites) Registered(ctx context.Context, tx *db.Tx, uid int64) error {
	// Most registrations have no inviter: they cost one indexed read.
	if _, err := inviterOf(ctx, tx, uid); errors.Is(err, db.ErrNotFound) {
		return nil
	} else if err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `UPDATE invite_bindings SET registered_at = ? WHERE invitee_id = ? AND registered_at = 0`, s.now().Unix(), uid); err != nil {
		return err
	}
	return s.settle(ctx, tx, uid)
}

// PhoneBound pays uid's inviter, when the operator waits for a bound
// phone, inside the binding of uid's phone (account calls it).
func (s *Invites) PhoneBound(ctx context.Context, tx *db.Tx, uid int64) error {
	return s.settleBound(ctx, tx, uid)
}

// Paid pays uid's inviter, when the operator waits for a first payment,
// inside the transaction of uid's paid order (the wallet's payment hook).
func (s *Invites) Paid(ctx context.Context, tx *db.Tx, uid int64) error {
	return s.settleBound(ctx, tx, uid)
}

func (s *Invites) settleBound(ctx context.Context, tx *db.Tx, uid int64) error {
	if _, err := inviterOf(ctx, tx, uid); errors.Is(err, db.ErrNotFound) {
		return nil
	} else if err != nil {
		return err
	}
	return s.settle(ctx, tx, uid)
}

// settle decides uid's pending binding once uid has registered: with the
// trigger "off" it closes unpaid; otherwise it pays when uid shows the
// trigger's sign (a bound phone, a paid order) and waits when not. reward
// applies the cap and device rules and makes it happen once.
func (s *Invites) settle(ctx context.Context, tx *db.Tx, uid int64) error {
	var state string
	var registered int64
	err := tx.QueryRow(ctx, `SELECT reward_state, registered_at FROM invite_bindings WHERE invitee_id = ?`, uid).Scan(&state, &registered)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && (state != "pending" || registered == 0)) {
		return nil
	}
	if err != nil {
		return err
	}
	on, err := s.trigger(ctx, tx)
	if err != nil {
		return err
	}
	var sign Counter
	switch on {
	case RewardPhone:
		sign = s.Signs.Phone
	case RewardPayment:
		sign = s.Signs.Paid
	}
	if sign != nil {
		n, err := sign(ctx, tx, uid, 0)
		if err != nil || n == 0 {
			return err
		}
	} else if on != RewardOff {
		return fmt.Errorf("invites: no sign counter for trigger %q", on)
	}
	cfg, err := loadConfig(ctx, tx, true)
	if err != nil {
		return err
	}
	return s.reward(ctx, tx, cfg, uid, on)
}

// bind checks the rules and writes the binding in tx; a registered
// invitee's inviter is rewarded at once. Every check is a read, so a
// refusal leaves a PostgreSQL transaction usable (GuestCreated goes on).
func (s *Invites) bind(ctx context.Context, tx *db.Tx, uid int64, code, source string) (int64, error) {
	// The settings row lock makes binds take turns on PostgreSQL (SQLite
	// has one writer anyway): two users binding each other's codes at
	// once cannot both pass the cycle check, and the daily cap counts
	// rewards one at a time. Binds are rare, once per user ever.
	cfg, err := loadConfig(ctx, tx, true)
	if err != nil {
		return 0, err
	}
	owner, err := codeOwner(ctx, tx, code)
	if errors.Is(err, db.ErrNotFound) {
		return 0, ErrUnknownCode
	}
	if err != nil {
		return 0, err
	}
	if owner == uid {
		return 0, ErrSelfInvite
	}
	if _, err := inviterOf(ctx, tx, uid); err == nil {
		return 0, ErrBound
	} else if !errors.Is(err, db.ErrNotFound) {
		return 0, err
	}
	now := s.now()
	created, _, err := s.people.Joined(ctx, tx, uid)
	if err != nil {
		return 0, err
	}
	if now.Unix()-created > int64(cfg.WindowDays)*86400 {
		return 0, ErrWindow
	}
	// Chains are acyclic by construction, so walking up from the owner
	// ends; the bound only guards against a corrupted table.
	for cur, i := owner, 0; i < 10000; i++ {
		up, err := inviterOf(ctx, tx, cur)
		if errors.Is(err, db.ErrNotFound) {
			break
		}
		if err != nil {
			return 0, err
		}
		if up == uid {
			return 0, ErrCycle
		}
		cur = up
	}
	dev, err := s.people.FirstDevice(ctx, tx, uid)
	if err != nil {
		return 0, err
	}
	res, err := tx.Exec(ctx, `INSERT INTO invite_bindings (invitee_id, inviter_id, dev_id, source, bound_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
		uid, owner, dev, source, now.Unix())
	if err != nil {
		return 0, err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return 0, ErrBound
	}
	if _, registered, err := s.people.Joined(ctx, tx, uid); err != nil {
		return 0, err
	} else if registered {
		if _, err := tx.Exec(ctx, `UPDATE invite_bindings SET registered_at = ? WHERE invitee_id = ?`, now.Unix(), uid); err != nil {
			return 0, err
		}
		if err := s.settle(ctx, tx, uid); err != nil {
			return 0, err
		}
	}
	return owner, nil
}

// reward settles uid's pending binding: rewarded, or why not (the reward
// is off, the inviter's daily cap is reached, the invitee's device earned
// a reward before). The conditional update makes it happen once per
// invitee whatever races. on is the trigger it was paid on.
func (s *Invites) reward(ctx context.Context, tx *db.Tx, cfg InviteConfig, uid int64, on string) error {
	var inviter int64
	var dev, state string
	err := tx.QueryRow(ctx, `SELECT inviter_id, dev_id, reward_state FROM invite_bindings WHERE invitee_id = ?`, uid).Scan(&inviter, &dev, &state)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil || state != "pending" {
		return err
	}
	now := s.now()
	state = "rewarded"
	if cfg.RewardCoins == 0 || on == RewardOff {
		state = "off"
	}
	if state == "rewarded" {
		var n int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM invite_bindings WHERE inviter_id = ? AND reward_state = 'rewarded' AND rewarded_at >= ?`,
			inviter, days.Start(now).Unix()).Scan(&n); err != nil {
			return err
		}
		if n >= cfg.DailyCap {
			state = "capped"
		}
	}
	if state == "rewarded" && dev != "" {
		res, err := tx.Exec(ctx, `INSERT INTO invite_reward_devices (dev_id, invitee_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`, dev, uid, now.Unix())
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			state = "device"
		}
	}
	coins := int64(0)
	if state == "rewarded" {
		coins = cfg.RewardCoins
	}
	res, err := tx.Exec(ctx, `UPDATE invite_bindings SET reward_state = ?, reward_coins = ?, rewarded_at = ? WHERE invitee_id = ? AND reward_state = 'pending'`,
		state, coins, now.Unix(), uid)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 || coins == 0 {
		return nil
	}
	key := fmt.Sprintf("invite:%d:%d", inviter, uid)
	if err := s.wallet.GrantReward(ctx, tx, inviter, "invite", key, "邀请好友奖励", wallet.Reward{Coins: coins}, now); err != nil {
		return err
	}
	what := "绑定了手机号"
	if on == RewardPayment {
		what = "完成了首次付费"
	}
	return messaging.Notify(ctx, tx, s.Events, messaging.Notice{
		UserID: inviter, Category: messaging.CategorySystem, Kind: "invite",
		Title: "邀请奖励到账", Body: fmt.Sprintf("你邀请的好友已注册并%s，奖励 %d 金币已到账。", what, coins),
		Ref: strconv.FormatInt(uid, 10),
	}, now)
}

// Invitees is a page of uid's invitees, newest first.
func (s *Invites) Invitees(ctx context.Context, uid int64, pageNumber, pageSize int) (httpx.Page[Invitee], error) {
	page := httpx.Page[Invitee]{List: []Invitee{}, PageNumber: pageNumber, PageSize: pageSize}
	list, total, err := inviteesOf(ctx, s.db, uid, pageNumber, pageSize)
	if err != nil {
		return page, err
	}
	uids := make([]int64, len(list))
	for i, v := range list {
		uids[i] = v.UID
	}
	people, err := s.people.InvitePeople(ctx, uids)
	if err != nil {
		return page, err
	}
	for i := range list {
		if p, ok := people[list[i].UID]; ok {
			list[i].Name, list[i].Portrait = MaskName(p.Name), p.Portrait
		}
	}
	if err := s.contribute(ctx, uid, list); err != nil {
		return page, err
	}
	page.List, page.Total = list, total
	page.HasMore = pageNumber*pageSize < total
	return page, nil
}

// contribute fills what each of inviter's invitees in list paid and earned
// inviter.
func (s *Invites) contribute(ctx context.Context, inviter int64, list []Invitee) error {
	if s.Contributions == nil || len(list) == 0 {
		return nil
	}
	uids := make([]int64, len(list))
	for i, v := range list {
		uids[i] = v.UID
	}
	paid, commission, err := s.Contributions(ctx, inviter, uids)
	if err != nil {
		return err
	}
	for i := range list {
		list[i].PaidCents, list[i].CommissionCents = paid[list[i].UID], commission[list[i].UID]
	}
	return nil
}

// MaskName keeps an invitee's first and last characters: the inviter
// recognises a friend without the list handing out account names.
func MaskName(name string) string {
	r := []rune(name)
	switch {
	case len(r) == 0:
		return ""
	case len(r) <= 2:
		return string(r[:1]) + "*"
	}
	return string(r[0]) + "**" + string(r[len(r)-1])
}

// Config is the operator's settings.
func (s *Invites) Config(ctx context.Context) (InviteConfig, error) {
	return loadConfig(ctx, s.db, false)
}

// SetConfig replaces the settings, audited in the same transaction.
func (s *Invites) SetConfig(ctx context.Context, actor audit.Actor, c InviteConfig) (InviteConfig, error) {
	if err := CheckInviteConfig(c); err != nil {
		return InviteConfig{}, err
	}
	now := s.now()
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		before, err := loadConfig(ctx, tx, true)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE invite_config SET reward_coins = ?, window_days = ?, daily_cap = ?, rules = ?, updated_at = ? WHERE id = 1`,
			c.RewardCoins, c.WindowDays, c.DailyCap, c.Rules, now.Unix()); err != nil {
			return err
		}
		return audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: "invite.config", TargetType: "invite_config", TargetID: "1", Before: before, After: c}, now)
	})
	return c, err
}

// AdminInvites is what an operator sees of uid's invitations.
type AdminInvites struct {
	UID      int64               `json:"uid"`
	Code     string              `json:"code"`
	Inviter  *int64              `json:"inviter"`
	Invitees httpx.Page[Invitee] `json:"invitees"`
}

// Admin is uid's code (empty if never asked), inviter and invitees,
// names unmasked.
func (s *Invites) Admin(ctx context.Context, uid int64, pageNumber, pageSize int) (AdminInvites, error) {
	out := AdminInvites{UID: uid}
	code, err := codeOf(ctx, s.db, uid)
	if err != nil && !errors.Is(err, db.ErrNotFound) {
		return out, err
	}
	out.Code = code
	if inv, err := inviterOf(ctx, s.db, uid); err == nil {
		out.Inviter = &inv
	} else if !errors.Is(err, db.ErrNotFound) {
		return out, err
	}
	list, total, err := inviteesOf(ctx, s.db, uid, pageNumber, pageSize)
	if err != nil {
		return out, err
	}
	uids := make([]int64, len(list))
	for i, v := range list {
		uids[i] = v.UID
	}
	people, err := s.people.InvitePeople(ctx, uids)
	if err != nil {
		return out, err
	}
	for i := range list {
		if p, ok := people[list[i].UID]; ok {
			list[i].Name, list[i].Portrait = p.Name, p.Portrait
		}
	}
	if err := s.contribute(ctx, uid, list); err != nil {
		return out, err
	}
	out.Invitees = httpx.NewPage(list, total, pageNumber, pageSize)
	return out, nil
}

// Invitations is a keyset page of every invitation (or inviter's alone,
// inviter > 0), newest first, names unmasked for the operator. after is
// the cursor's keys (bound_at, invitee_id), nil for the first page.
func (s *Invites) Invitations(ctx context.Context, inviter int64, after []int64, size int) (httpx.KeyPage[Invitation], error) {
	rows, err := invitations(ctx, s.db, inviter, after, size)
	if err != nil {
		return httpx.KeyPage[Invitation]{}, err
	}
	page := httpx.NewKeyPage(rows, size, func(v Invitation) []int64 { return []int64{v.BoundAt, v.Invitee.UID} })
	seen := map[int64]bool{}
	var uids []int64
	for _, v := range page.List {
		for _, id := range []int64{v.Inviter.UID, v.Invitee.UID} {
			if !seen[id] {
				seen[id] = true
				uids = append(uids, id)
			}
		}
	}
	if len(uids) == 0 {
		return page, nil
	}
	people, err := s.people.InvitePeople(ctx, uids)
	if err != nil {
		return page, err
	}
	for i := range page.List {
		v := &page.List[i]
		if p, ok := people[v.Inviter.UID]; ok {
			v.Inviter = p
		}
		if p, ok := people[v.Invitee.UID]; ok {
			v.Invitee = p
		}
	}
	return page, nil
}
