package account

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"prima/internal/platform/db"
	"prima/internal/platform/realtime"
	"prima/internal/search"
)

// Profile editing (POST /api/app/mine/info). What a user says about
// themselves is shown to everyone (usercenter, follow lists, chat), so the
// rules are about what others will read: a name that is a name (not empty,
// not an impersonation of staff or of a generated guest name), a one-line
// bio, a gender from a fixed set, and a portrait that is a picture the user
// uploaded themselves.

// Profile limits, in characters (runes): a name fits a list row and a chat
// header on a 320 px phone; a bio fits two lines under the header.
const (
	NameMin = 2
	NameMax = 16
	BioMax  = 60
)

// Gender values: 0 unset (the default), 1 male, 2 female.
const (
	GenderUnset  = 0
	GenderMale   = 1
	GenderFemale = 2
)

// profileRate bounds edits per user: each portrait change copies a file to
// public storage, and a name that changes every second is a spam channel.
var profileRate = Rate{N: 20, Per: 10 * time.Minute}

// Reserved words are checked after folding width and case and dropping
// spaces and punctuation, so nobody poses as staff.
// Chinese words are refused anywhere in the name; Latin ones at its start
// or end ("Admin2", "prima_official"), so "badminton" stays a fine name.
var (
	reservedWords = []string{"客服", "官方", "管理员", "系统消息", "运营", "平台"}
	reservedLatin = []string{"admin", "official", "system", "prima", "operator", "support"}
)

// Portraits publishes picture asset id, which must be owner's own, at a
// public, immutable URL and returns that URL (the media pipeline implements
// it; app.go wires it). Errors: ErrPortraitNotFound for an asset that does
// not exist or is not owner's (one answer, so ids of others' uploads are not
// probed), ErrPortraitNotImage for anything but a ready picture.
type Portraits interface {
	PublishPortrait(ctx context.Context, owner, id int64) (string, error)
}

// Follows answers whether follower follows followee (PublicProfile.isFollow).
type Follows interface {
	IsFollowing(ctx context.Context, follower, followee int64) (bool, error)
}

var (
	ErrPortraitNotFound = errors.New("account: no such picture of the user")
	ErrPortraitNotImage = errors.New("account: the asset is not a ready picture")
)

// ProfileInput is an edit; a nil field is left as it is.
type ProfileInput struct {
	Name     *string
	Portrait *int64 // an uploaded picture's asset id
	Gender   *int
	Bio      *string
}

// CheckName applies the name rules to a trimmed name.
func CheckName(name string) error {
	n := utf8.RuneCountInString(name)
	switch {
	case name == "":
		return invalid("name", "昵称不能为空", "name is empty")
	case n < NameMin || n > NameMax:
		return invalid("name", fmt.Sprintf("昵称需为%d-%d个字符", NameMin, NameMax), fmt.Sprintf("name is %d characters, must be %d-%d", n, NameMin, NameMax))
	}
	for _, r := range name {
		// Controls are refused by the decoder already; format characters
		// (zero-width joiners, bidi overrides) make two names look alike
		// or a name render backwards, and line breaks have no place here.
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029' || r == utf8.RuneError {
			return invalid("name", "昵称包含不可见字符", "name holds control or format characters")
		}
	}
	folded := foldName(name)
	if strings.HasPrefix(folded, foldName(guestPrefix)) {
		// Generated guest names start with 游客: a chosen one must not pass
		// for a guest nobody can tell apart from the real one.
		return invalid("name", "昵称不能以“游客”开头", "names starting with 游客 are reserved for guests")
	}
	for _, w := range reservedWords {
		if strings.Contains(folded, w) {
			return invalid("name", "昵称包含保留词“"+w+"”，请换一个", "name contains the reserved word "+w)
		}
	}
	for _, w := range reservedLatin {
		if strings.HasPrefix(folded, w) || strings.HasSuffix(folded, w) {
			return invalid("name", "昵称包含保留词“"+w+"”，请换一个", "name starts or ends with the reserved word "+w)
		}
	}
	return nil
}

// foldName is name as the reserved-word check sees it: compatibility
// forms folded (fullwidth ＡＤＭＩＮ is admin), lower case, with spaces,
// punctuation and symbols dropped (a.d.m.i.n, 客 服).
func foldName(name string) string {
	var b strings.Builder
	for _, r := range norm.NFKC.String(name) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// CheckBio applies the bio rules to a trimmed bio: empty is allowed.
func CheckBio(bio string) error {
	if n := utf8.RuneCountInString(bio); n > BioMax {
		return invalid("bio", fmt.Sprintf("个人简介最多%d个字符", BioMax), fmt.Sprintf("bio is %d characters, at most %d", n, BioMax))
	}
	for _, r := range bio {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029' || r == utf8.RuneError {
			return invalid("bio", "个人简介包含不可见字符", "bio holds control or format characters")
		}
	}
	return nil
}

// UpdateProfile applies in to user uid and returns the user as saved. The
// portrait is published before the transaction (a file copy has no place
// in it); a refused edit changes nothing, though a published copy may stay
// behind as an unreferenced file.
func (s *Service) UpdateProfile(ctx context.Context, uid int64, in ProfileInput) (User, error) {
	if in.Name == nil && in.Portrait == nil && in.Gender == nil && in.Bio == nil {
		return User{}, invalid("name", "没有要修改的内容", "no field to change: name, portrait, gender or bio")
	}
	var name, bio string
	if in.Name != nil {
		name = strings.TrimSpace(*in.Name)
	}
	if in.Bio != nil {
		bio = strings.TrimSpace(*in.Bio)
		if err := CheckBio(bio); err != nil {
			return User{}, err
		}
	}
	if in.Gender != nil && (*in.Gender < GenderUnset || *in.Gender > GenderFemale) {
		return User{}, invalid("gender", "性别无效", "gender must be 0 (unset), 1 (male) or 2 (female)")
	}
	if in.Portrait != nil && *in.Portrait <= 0 {
		return User{}, invalid("portrait", "头像无效", "portrait must be an uploaded picture's id")
	}
	cur, err := userByID(ctx, s.db, uid)
	if err != nil {
		return User{}, err
	}
	// Saving the form with the name unchanged (a guest's generated 游客…
	// name included) is not choosing a name: only a new name is checked.
	if in.Name != nil && name != cur.Name {
		if err := CheckName(name); err != nil {
			return User{}, err
		}
		if s.Words != nil {
			if err := s.Words.Check(ctx, name); err != nil {
				return User{}, err
			}
		}
	}
	if err := s.limit(ctx, "profile", fmt.Sprintf("profile:uid:%d", uid), profileRate); err != nil {
		return User{}, err
	}
	var portrait string
	if in.Portrait != nil {
		if s.Portraits == nil {
			return User{}, ErrPortraitNotFound
		}
		if portrait, err = s.Portraits.PublishPortrait(ctx, uid, *in.Portrait); err != nil {
			return User{}, err
		}
	}
	var out User
	err = s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		u, err := lockUser(ctx, tx, uid)
		if err != nil {
			return err
		}
		if in.Name != nil {
			u.Name = name
		}
		if in.Portrait != nil {
			u.Portrait = portrait
		}
		if in.Gender != nil {
			u.Gender = *in.Gender
		}
		if in.Bio != nil {
			u.Bio = bio
		}
		u.UpdatedAt = s.now().Unix()
		if _, err := tx.Exec(ctx, `UPDATE users SET name = ?, portrait = ?, gender = ?, bio = ?, updated_at = ? WHERE id = ?`,
			u.Name, u.Portrait, u.Gender, u.Bio, u.UpdatedAt, uid); err != nil {
			return err
		}
		if in.Name != nil || in.Bio != nil {
			if err := search.Touch(ctx, tx, search.KindUser, uid); err != nil {
				return err
			}
		}
		out = u
		// The user's other tabs and devices refetch their info.
		tx.AfterCommit(func() {
			realtime.Notify(context.WithoutCancel(ctx), s.Events, realtime.UserTopic(uid), "profile.changed", map[string]int64{"uid": uid})
		})
		return nil
	})
	if err != nil {
		return User{}, err
	}
	return out, nil
}

// ViewProfile is user uid as viewer sees it; viewer 0 is anonymous.
func (s *Service) ViewProfile(ctx context.Context, viewer, uid int64) (PublicProfile, error) {
	u, err := userByID(ctx, s.db, uid)
	if err != nil {
		return PublicProfile{}, err
	}
	p := s.Profile(u)
	if viewer != 0 && viewer != uid && s.Follows != nil {
		if p.IsFollow, err = s.Follows.IsFollowing(ctx, viewer, uid); err != nil {
			return PublicProfile{}, err
		}
	}
	return p, nil
}

// PhoneBound is 1 when uid has bound a mobile number, else 0: the welfare
// tasks' bind_phone metric (rewards.Counter). A profile fact holds
// whatever the day, so since is not read.
func PhoneBound(ctx context.Context, q db.Querier, uid, since int64) (int64, error) {
	var n int64
	err := q.QueryRow(ctx, `SELECT COUNT(*) FROM users WHERE id = ? AND mobile IS NOT NULL AND mobile <> ''`, uid).Scan(&n)
	return n, err
}

// HasPortrait is 1 when uid has set a portrait, else 0: the welfare tasks'
// portrait metric (rewards.Counter); since is not read.
func HasPortrait(ctx context.Context, q db.Querier, uid, since int64) (int64, error) {
	var n int64
	err := q.QueryRow(ctx, `SELECT COUNT(*) FROM users WHERE id = ? AND portrait <> ''`, uid).Scan(&n)
	return n, err
}
