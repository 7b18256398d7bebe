package wallet

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"prima/internal/account"
	"prima/internal/membership"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
)

// UserInfos gives the user info (the contract's UserInfo) of a user, read
// after commit. The account package owns it; app.go wires it (the wallet
// does not import account).
type UserInfos interface {
	UserInfo(ctx context.Context, uid int64) (any, error)
}

// UserInfoFunc adapts a function to UserInfos.
type UserInfoFunc func(ctx context.Context, uid int64) (any, error)

// UserInfo calls f.
func (f UserInfoFunc) UserInfo(ctx context.Context, uid int64) (any, error) { return f(ctx, uid) }

var (
	// ErrNotForCoins: the card has no coin price (422).
	ErrNotForCoins = errors.New("VIP card not sold for coins")
	// ErrNewUserOver: a new-user card for an account past its first 24 hours (403).
	ErrNewUserOver = errors.New("new-user offer expired")
	// ErrRegisteredOnly: a guest tried a call for registered accounts (403).
	ErrRegisteredOnly = errors.New("registered accounts only")
)

// caller is what the wallet reads of a user: whether it is a guest and
// when its account was made.
type caller struct {
	Guest     bool
	CreatedAt int64
}

func readCaller(ctx context.Context, q db.Querier, uid int64) (caller, error) {
	created, registered, err := account.Joined(ctx, q, uid)
	return caller{Guest: !registered, CreatedAt: created}, err
}

// isNew reports whether an account made at created is still new at now
// (younger than membership.NewUserWindow), and the seconds it has left.
func isNew(created int64, now time.Time) (bool, int64) {
	left := created + int64(membership.NewUserWindow/time.Second) - now.Unix()
	if left <= 0 {
		return false, 0
	}
	return true, left
}

// Tiers are a user's own expiry of each VIP tier (null: never held).
type Tiers struct {
	VIP  *time.Time `json:"vip"`
	SVIP *time.Time `json:"svip"`
}

// VIPProducts is GET /api/app/vip/product.
type VIPProducts struct {
	List  []membership.Product `json:"list"`
	Tiers Tiers                `json:"tiers"`
	// PayTypes are the providers a card can be paid through with money
	// (as the coin packages list them).
	PayTypes []PayType `json:"payTypes"`
}

func unixOrNil(sec int64) *time.Time {
	if sec == 0 {
		return nil
	}
	t := time.Unix(sec, 0).UTC()
	return &t
}

// VIPProducts lists the cards uid may buy: the active ones, new-user cards
// only while uid's account is under 24 hours old and neither it nor the
// device of ctx's session has had a new-user offer.
func (s *Service) VIPProducts(ctx context.Context, uid int64) (VIPProducts, error) {
	c, err := readCaller(ctx, s.db, uid)
	if err != nil {
		return VIPProducts{}, err
	}
	all, err := membership.Products(ctx, s.db)
	if err != nil {
		return VIPProducts{}, err
	}
	fresh, _ := isNew(c.CreatedAt, s.now())
	if fresh {
		held, err := newUserClaim(ctx, s.db, uid, deviceOf(ctx))
		if err != nil {
			return VIPProducts{}, err
		}
		fresh = held == ""
	}
	pts, err := s.PayTypes(ctx, s.db)
	if err != nil {
		return VIPProducts{}, err
	}
	out := VIPProducts{List: []membership.Product{}, PayTypes: pts}
	for _, p := range all {
		if p.NewUser && !fresh {
			continue
		}
		out.List = append(out.List, p)
	}
	t, err := account.Tiers(ctx, s.db, uid)
	if err != nil {
		return VIPProducts{}, err
	}
	out.Tiers = Tiers{VIP: unixOrNil(t.VipExpireAt), SVIP: unixOrNil(t.SvipExpireAt)}
	return out, nil
}

// BoughtVIP is what a coin purchase of a card stored under its
// idempotency key: the movement and the card.
type BoughtVIP struct {
	TxnID     int64 `json:"txnID"`
	ProductID int64 `json:"productID"`
	Level     int   `json:"level"`
	Days      int   `json:"days"`
	Coins     int64 `json:"coins"`
}

// BuyVIP sells card productID to uid for its coin price, once per key: one
// transaction holds the idempotency record, the new-user claim of a
// new-user card (claimNewUser, for uid and the device of ctx's session),
// the ledger movement ("buy_vip": the user's coins to SysCoinsSpent) and
// the tier's extension (grantVIP). A replay returns the first purchase and
// moves nothing.
func (s *Service) BuyVIP(ctx context.Context, uid, productID int64, key string) (BoughtVIP, bool, error) {
	now := s.now()
	var (
		out    BoughtVIP
		replay bool
	)
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		var err error
		out, replay, err = Once(ctx, tx, uid, "vip.buy", key, map[string]int64{"productID": productID}, now, func() (BoughtVIP, error) {
			p, err := membership.ProductByID(ctx, tx, productID)
			if err != nil {
				return BoughtVIP{}, err
			}
			if p.Coins <= 0 {
				return BoughtVIP{}, ErrNotForCoins
			}
			if p.NewUser {
				c, err := readCaller(ctx, tx, uid)
				if err != nil {
					return BoughtVIP{}, err
				}
				if fresh, _ := isNew(c.CreatedAt, now); !fresh {
					return BoughtVIP{}, ErrNewUserOver
				}
				if err := claimNewUser(ctx, tx, uid, deviceOf(ctx), p.ID, fmt.Sprintf("vipbuy:%d:%s", uid, key), now); err != nil {
					return BoughtVIP{}, err
				}
			}
			posted, err := s.Ledger.Post(ctx, tx, Transfer{Kind: "buy_vip", Key: fmt.Sprintf("buyvip:%d:%s", uid, key), UserID: uid,
				Ref: fmt.Sprintf("vip:%d", p.ID), Memo: p.Name, Legs: []Leg{
					{UserCoins(uid), -p.Coins}, {System(SysCoinsSpent), p.Coins},
				}}, now)
			if err != nil {
				return BoughtVIP{}, err
			}
			if _, err := s.grantVIP(ctx, tx, uid, p, fmt.Sprintf("vipbuy:%d", posted.TxnID), now); err != nil {
				return BoughtVIP{}, err
			}
			return BoughtVIP{TxnID: posted.TxnID, ProductID: p.ID, Level: p.Level, Days: p.Days, Coins: p.Coins}, nil
		})
		if err == nil && !replay {
			s.notify(tx, uid, "buy_vip")
		}
		return err
	})
	return out, replay, err
}

// Countdown is GET /api/app/vip/tiroCountdown.
type Countdown struct {
	IsNew       bool                `json:"isNew"`
	SecondsLeft int64               `json:"secondsLeft"`
	Offer       *membership.Product `json:"offer"`
	// Used: the account or this device has had the new-user offer (or an
	// unpaid order holds it), so there is none.
	Used bool `json:"used"`
}

// Countdown says whether uid still gets the new-user offer, for how many
// seconds, and which card it is (the first active newUser card); no card
// once uid or the device of ctx's session has had the offer.
func (s *Service) Countdown(ctx context.Context, uid int64) (Countdown, error) {
	c, err := readCaller(ctx, s.db, uid)
	if err != nil {
		return Countdown{}, err
	}
	fresh, left := isNew(c.CreatedAt, s.now())
	out := Countdown{IsNew: fresh, SecondsLeft: left}
	if !fresh {
		return out, nil
	}
	held, err := newUserClaim(ctx, s.db, uid, deviceOf(ctx))
	if err != nil {
		return Countdown{}, err
	}
	if out.Used = held != ""; out.Used {
		return out, nil
	}
	all, err := membership.Products(ctx, s.db)
	if err != nil {
		return Countdown{}, err
	}
	for _, p := range all {
		if p.NewUser {
			out.Offer = &p
			break
		}
	}
	return out, nil
}

// VIPProducts is GET /api/app/vip/product.
func (h *Handler) VIPProducts(w http.ResponseWriter, r *http.Request) error {
	out, err := h.s.VIPProducts(r.Context(), httpx.UserID(r.Context()))
	if err != nil {
		return err
	}
	return httpx.OK(w, out)
}

// BuyVIPAnswer is POST /api/app/vip/buy's answer.
type BuyVIPAnswer struct {
	User   any     `json:"user"`
	Wallet Summary `json:"wallet"`
}

// BuyVIP is POST /api/app/vip/buy {productID, idempotencyKey}.
func (h *Handler) BuyVIP(w http.ResponseWriter, r *http.Request) error {
	var body struct {
		ProductID      *int64 `json:"productID"`
		IdempotencyKey string `json:"idempotencyKey"`
	}
	if err := httpx.Decode(w, r, &body); err != nil {
		return err
	}
	if body.ProductID == nil {
		return httpx.Invalid("缺少参数 productID", "productID is required")
	}
	if *body.ProductID < 1 || *body.ProductID > httpx.MaxID {
		return httpx.Invalid("参数 productID 无效", "productID must be a positive integer up to 2^53-1")
	}
	key, err := KeyFrom(r, body.IdempotencyKey)
	if err != nil {
		return err
	}
	ctx := r.Context()
	uid := httpx.UserID(ctx)
	if err := h.s.limit(ctx, "vipbuy", uid, LimitVIPBuy, time.Minute); err != nil {
		return limitErrs.Map(err)
	}
	if _, _, err := h.s.BuyVIP(ctx, uid, *body.ProductID, key); err != nil {
		return vipErrs.Map(err)
	}
	return h.userAndWallet(w, r, uid)
}

// userAndWallet answers {user, wallet} as they are now (after commit).
func (h *Handler) userAndWallet(w http.ResponseWriter, r *http.Request, uid int64) error {
	ctx := r.Context()
	out := BuyVIPAnswer{}
	if h.s.Users != nil {
		u, err := h.s.Users.UserInfo(ctx, uid)
		if err != nil {
			return err
		}
		out.User = u
	}
	sum, err := h.s.Summary(ctx, uid)
	if err != nil {
		return err
	}
	out.Wallet = sum
	return httpx.OK(w, out)
}

// TiroCountdown is GET /api/app/vip/tiroCountdown?seconds=N.
func (h *Handler) TiroCountdown(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	q.Int("seconds", 0, 0, 86400)
	if err := q.Err(); err != nil {
		return err
	}
	out, err := h.s.Countdown(r.Context(), httpx.UserID(r.Context()))
	if err != nil {
		return err
	}
	return httpx.OK(w, out)
}

// grantVIP gives uid what VIP card p includes, inside tx: p.Days of its
// tier (extended from the later of now and that tier's expiry) and
// p.Coupons gold-video coupons (valid for the coupon kind's days). Every
// way of buying a card (coins, a paid order, an operator marking an order
// paid) goes through here, so a card gives the same thing however it was
// paid for. source names the sale ("order:<no>", "vipbuy:<txn>"): the
// coupons carry it, so a refund of that sale takes back what is left of them.
func (s *Service) grantVIP(ctx context.Context, tx *db.Tx, uid int64, p membership.Product, source string, now time.Time) (membership.User, error) {
	u, err := account.ExtendTier(ctx, tx, uid, p.Level, p.Days, now)
	if err != nil {
		return u, err
	}
	if p.Coupons > 0 {
		if _, err := grantCoupons(ctx, tx, uid, p.Coupons, 0, source, now); err != nil {
			return u, err
		}
	}
	return u, nil
}
