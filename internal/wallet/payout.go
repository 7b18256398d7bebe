package wallet

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/crypto/sha3"

	"prima/internal/account"
	"prima/internal/platform/db"
)

// Payout accounts: where a user's withdrawals are paid. A bank card
// (ActBank) or a USDT address (ActUSDT, TRC20 or ERC20). The full number
// is stored (an operator pays to it); every answer to the user masks it.

// Payout account types (actType).
const (
	ActBank = 1
	ActUSDT = 2
)

// USDT networks.
const (
	TRC20 = "TRC20"
	ERC20 = "ERC20"
)

// MaxPayoutAccounts is how many live accounts of each type a user may keep.
const MaxPayoutAccounts = 5

var (
	// ErrGuest: the caller has no account and password (403): guests are
	// device-bound and replayable, so they cannot be paid out.
	ErrGuest = errors.New("guest account")
	// ErrWrongPassword: the password check failed (401).
	ErrWrongPassword = errors.New("wrong password")
	// ErrTooManyTries: the password check is throttled (429).
	ErrTooManyTries = errors.New("too many password attempts")
)

// Passwords checks a user's password afresh before a payout account is
// added or a withdrawal made. VerifyPassword answers nil, ErrGuest,
// ErrWrongPassword or an error matching ErrTooManyTries (when it is a
// *RetryError, the wait is told to the client); ip is the caller's
// address, which the throttle counts by.
type Passwords interface {
	VerifyPassword(ctx context.Context, uid int64, password, ip string) error
}

// RetryError is ErrTooManyTries with the wait.
type RetryError struct{ After time.Duration }

func (e *RetryError) Error() string {
	return fmt.Sprintf("too many password attempts, retry after %v", e.After)
}
func (e *RetryError) Is(target error) bool { return target == ErrTooManyTries }

// PayoutAccount is one payout account as the user sees it: masked.
type PayoutAccount struct {
	ID        int64     `json:"id"`
	ActType   int       `json:"actType"`
	BankName  string    `json:"bankName"`
	Holder    string    `json:"holder"`
	Number    string    `json:"number"`  // bank card, masked ("" for USDT)
	Network   string    `json:"network"` // USDT network ("" for a card)
	Address   string    `json:"address"` // USDT address, masked ("" for a card)
	CreatedAt time.Time `json:"createdAt"`
}

// payoutRow is a payout account as stored (full number).
type payoutRow struct {
	ID        int64
	UserID    int64
	ActType   int
	BankName  string
	Holder    string
	Number    string
	Network   string
	CreatedAt int64
}

const payoutColumns = `id, user_id, act_type, bank_name, holder, number, network, created_at`

func scanPayout(s db.Scanner) (payoutRow, error) {
	var p payoutRow
	return p, s.Scan(&p.ID, &p.UserID, &p.ActType, &p.BankName, &p.Holder, &p.Number, &p.Network, &p.CreatedAt)
}

// view is the masked answer; full keeps the number whole (operators).
func (p payoutRow) view(full bool) PayoutAccount {
	a := PayoutAccount{ID: p.ID, ActType: p.ActType, BankName: p.BankName, Holder: p.Holder, Network: p.Network,
		CreatedAt: time.Unix(p.CreatedAt, 0).UTC()}
	num := p.Number
	if p.ActType == ActBank {
		if !full {
			num = MaskCard(num)
		}
		a.Number = num
	} else {
		if !full {
			num = MaskAddress(num)
		}
		a.Address = num
	}
	return a
}

// MaskCard shows a card's last four digits: "**** **** **** 1234".
func MaskCard(n string) string {
	if len(n) < 4 {
		return "****"
	}
	return "**** **** **** " + n[len(n)-4:]
}

// MaskAddress shows an address's first 6 and last 4 characters.
func MaskAddress(a string) string {
	if len(a) <= 10 {
		return strings.Repeat("*", len(a))
	}
	return a[:6] + "****" + a[len(a)-4:]
}

// PayoutInput is POST /api/app/mine/txnact/bank/add.
type PayoutInput struct {
	ActType  *int64 `json:"actType"`
	BankName string `json:"bankName"`
	Holder   string `json:"holder"`
	Number   string `json:"number"`
	Network  string `json:"network"`
	Address  string `json:"address"`
	PassWord string `json:"passWord"`
}

// validatePayout checks in and returns the row to store (normalised: no
// spaces in a card number, the network upper-cased).
func validatePayout(in PayoutInput) (payoutRow, error) {
	if in.ActType == nil {
		return payoutRow{}, invalid("缺少参数 actType", "actType is required")
	}
	switch *in.ActType {
	case ActBank:
		num := strings.ReplaceAll(strings.TrimSpace(in.Number), " ", "")
		if err := CheckCardNumber(num); err != nil {
			return payoutRow{}, err
		}
		holder := strings.TrimSpace(in.Holder)
		if err := CheckHolder(holder); err != nil {
			return payoutRow{}, err
		}
		bank := strings.TrimSpace(in.BankName)
		if err := CheckBankName(bank); err != nil {
			return payoutRow{}, err
		}
		return payoutRow{ActType: ActBank, BankName: bank, Holder: holder, Number: num}, nil
	case ActUSDT:
		network := strings.ToUpper(strings.TrimSpace(in.Network))
		addr := strings.TrimSpace(in.Address)
		var err error
		switch network {
		case TRC20:
			err = CheckTRC20(addr)
		case ERC20:
			err = CheckERC20(addr)
		case "":
			return payoutRow{}, invalid("缺少参数 network", "network is required for USDT (TRC20 or ERC20)")
		default:
			return payoutRow{}, invalid("参数 network 无效", "network must be TRC20 or ERC20")
		}
		if err != nil {
			return payoutRow{}, err
		}
		return payoutRow{ActType: ActUSDT, Network: network, Number: addr}, nil
	}
	return payoutRow{}, invalid("参数 actType 无效", "actType must be 1 (bank card) or 2 (USDT)")
}

// CheckCardNumber: 12 to 19 digits with a valid Luhn checksum.
func CheckCardNumber(n string) error {
	if n == "" {
		return invalid("请输入银行卡号", "number is required")
	}
	if len(n) < 12 || len(n) > 19 {
		return invalid("银行卡号应为12到19位数字", "number must be 12-19 digits")
	}
	sum := 0
	for i := 0; i < len(n); i++ {
		c := n[len(n)-1-i]
		if c < '0' || c > '9' {
			return invalid("银行卡号应为12到19位数字", "number must be 12-19 digits")
		}
		d := int(c - '0')
		if i%2 == 1 {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
	}
	if sum%10 != 0 {
		return invalid("银行卡号有误，请核对", "number fails the Luhn checksum")
	}
	return nil
}

// CheckHolder: 1 to 30 characters of letters (any script, CJK included),
// spaces and the middle dot of transliterated names (·); not only spaces.
func CheckHolder(h string) error {
	if h == "" {
		return invalid("请输入持卡人姓名", "holder is required")
	}
	if utf8.RuneCountInString(h) > 30 {
		return invalid("持卡人姓名最多30个字", "holder is at most 30 characters")
	}
	for _, r := range h {
		if !unicode.IsLetter(r) && r != ' ' && r != '·' && r != '•' {
			return invalid("持卡人姓名只能包含文字、空格和·", "holder takes letters, spaces and ·")
		}
	}
	return nil
}

// CheckBankName: 2 to 30 characters of letters, digits, spaces and
// brackets (开户行 names such as "中国银行(上海分行)").
func CheckBankName(b string) error {
	if b == "" {
		return invalid("请输入开户银行", "bankName is required")
	}
	if n := utf8.RuneCountInString(b); n < 2 || n > 30 {
		return invalid("开户银行应为2到30个字", "bankName must be 2-30 characters")
	}
	for _, r := range b {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune(" ()（）·-", r) {
			return invalid("开户银行名称无效", "bankName takes letters, digits, spaces and brackets")
		}
	}
	return nil
}

const base58Alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

// base58Decode decodes Bitcoin-alphabet base58 (leading '1's are zero bytes).
func base58Decode(s string) ([]byte, bool) {
	n := new(big.Int)
	radix := big.NewInt(58)
	for i := 0; i < len(s); i++ {
		d := strings.IndexByte(base58Alphabet, s[i])
		if d < 0 {
			return nil, false
		}
		n.Mul(n, radix)
		n.Add(n, big.NewInt(int64(d)))
	}
	zeros := 0
	for zeros < len(s) && s[zeros] == '1' {
		zeros++
	}
	return append(make([]byte, zeros), n.Bytes()...), true
}

// CheckTRC20 checks a TRON address: base58check of 25 bytes, version byte
// 0x41, 34 characters starting with T, checksum the first 4 bytes of a
// double SHA-256 of the first 21.
func CheckTRC20(a string) error {
	bad := invalid("TRC20地址格式错误，请核对", "address is not a TRC20 address")
	if a == "" {
		return invalid("请输入USDT地址", "address is required")
	}
	if len(a) != 34 || a[0] != 'T' {
		return bad
	}
	b, ok := base58Decode(a)
	if !ok || len(b) != 25 || b[0] != 0x41 {
		return bad
	}
	h1 := sha256.Sum256(b[:21])
	h2 := sha256.Sum256(h1[:])
	if string(h2[:4]) != string(b[21:]) {
		return invalid("TRC20地址校验失败，请核对", "address fails its checksum")
	}
	return nil
}

// CheckERC20 checks an Ethereum address: "0x" and 40 hex digits. All lower
// or all upper case carries no checksum and is accepted; mixed case must
// match its EIP-55 checksum (keccak-256 of the lower-case hex).
func CheckERC20(a string) error {
	bad := invalid("ERC20地址格式错误，请核对", "address is not an ERC20 address")
	if a == "" {
		return invalid("请输入USDT地址", "address is required")
	}
	if len(a) != 42 || a[0] != '0' || (a[1] != 'x' && a[1] != 'X') {
		return bad
	}
	body := a[2:]
	if _, err := hex.DecodeString(body); err != nil {
		return bad
	}
	lower, upper := strings.ToLower(body), strings.ToUpper(body)
	if body == lower || body == upper {
		return nil
	}
	h := sha3.NewLegacyKeccak256()
	h.Write([]byte(lower))
	sum := h.Sum(nil)
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c >= 'A' { // a letter (digits sort below)
			nib := sum[i/2] >> 4
			if i%2 == 1 {
				nib = sum[i/2] & 0x0f
			}
			if (nib >= 8) != (c >= 'A' && c <= 'F') {
				return invalid("ERC20地址校验失败，请核对", "address fails its EIP-55 checksum")
			}
		}
	}
	return nil
}

// PayoutAccounts lists uid's live accounts of actType, oldest first.
func (s *Service) PayoutAccounts(ctx context.Context, uid int64, actType int) ([]PayoutAccount, error) {
	rows, err := db.All(ctx, s.db, scanPayout, `SELECT `+payoutColumns+` FROM payout_accounts
		WHERE user_id = ? AND act_type = ? AND deleted_at = 0 ORDER BY id`, uid, actType)
	if err != nil {
		return nil, err
	}
	out := make([]PayoutAccount, len(rows))
	for i, r := range rows {
		out[i] = r.view(false)
	}
	return out, nil
}

// AddPayoutAccount stores in's account for uid after the caller's password
// was checked. The user's row is locked first, so parallel adds cannot
// both pass the per-type limit or the duplicate check.
func (s *Service) AddPayoutAccount(ctx context.Context, uid int64, in PayoutInput) (PayoutAccount, error) {
	p, err := validatePayout(in)
	if err != nil {
		return PayoutAccount{}, err
	}
	now := s.now().Unix()
	err = s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		if err := lockUserRow(ctx, tx, uid); err != nil {
			return err
		}
		var n, dup int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*), COALESCE(SUM(CASE WHEN lower(number) = lower(?) THEN 1 ELSE 0 END), 0) FROM payout_accounts
			WHERE user_id = ? AND act_type = ? AND deleted_at = 0`, p.Number, uid, p.ActType).Scan(&n, &dup); err != nil {
			return err
		}
		// An ERC20 address is one address in any case.
		if dup > 0 {
			return ErrPayoutExists
		}
		if n >= MaxPayoutAccounts {
			return ErrPayoutMax
		}
		p.UserID, p.CreatedAt = uid, now
		return tx.QueryRow(ctx, `INSERT INTO payout_accounts (user_id, act_type, bank_name, holder, number, network, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`, uid, p.ActType, p.BankName, p.Holder, p.Number, p.Network, now).Scan(&p.ID)
	})
	if err != nil {
		return PayoutAccount{}, err
	}
	return p.view(false), nil
}

// DeletePayoutAccount removes uid's account id. Another user's id answers
// as an unknown one (404); an account a pending withdrawal pays to, 409.
func (s *Service) DeletePayoutAccount(ctx context.Context, uid, id int64) error {
	now := s.now().Unix()
	return s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		if err := lockUserRow(ctx, tx, uid); err != nil {
			return err
		}
		var pending int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM withdrawals WHERE account_id = ? AND user_id = ? AND status = 'pending'`,
			id, uid).Scan(&pending); err != nil {
			return err
		}
		res, err := tx.Exec(ctx, `UPDATE payout_accounts SET deleted_at = ? WHERE id = ? AND user_id = ? AND deleted_at = 0`, now, id, uid)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return ErrNoAccount
		}
		if pending > 0 {
			return ErrPayoutBusy
		}
		return nil
	})
}

// Refusals of payout accounts (withdrawErrs answers them).
var (
	// ErrNoAccount: no payout account with that id of this user (404).
	ErrNoAccount = errors.New("no such payout account")
	// ErrPayoutExists: the same account is added already (409).
	ErrPayoutExists = errors.New("this account is already added")
	// ErrPayoutMax: MaxPayoutAccounts of the type are added (409).
	ErrPayoutMax = errors.New("at most 5 accounts of each type")
	// ErrPayoutBusy: a pending withdrawal pays to the account (409).
	ErrPayoutBusy = errors.New("a pending withdrawal pays to this account")
)

// lockUserRow holds uid's users row until tx ends (account.HoldUser): the
// per-user rules of payout accounts and withdrawals are checked under it.
func lockUserRow(ctx context.Context, tx *db.Tx, uid int64) error {
	return account.HoldUser(ctx, tx, uid)
}
