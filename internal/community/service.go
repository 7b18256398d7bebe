// Package community holds what users do with each other in public:
// follows (who follows whom, the follow and fans lists, the counts on a
// user's page), topics, posts (picture, video and article), likes,
// comments in two levels, reports, and the operator's moderation (review,
// pin, feature, remove, mute). post.go is the post as every call hands it
// out and the one visibility rule.
//
// Follows are registered users' only: a guest is one device's throwaway
// account, and letting guests follow would let anyone mint fans by
// clearing storage. Anyone (a guest too) may read lists and counts: they
// are shown on public user pages.
package community

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"prima/internal/account"
	"prima/internal/media"
	"prima/internal/membership"
	"prima/internal/messaging"
	"prima/internal/platform/db"
	"prima/internal/platform/ratelimit"
	"prima/internal/platform/realtime"
)

// NoticeEvery is how often one follower's follows of one user notify them:
// unfollowing and following again within it stays silent.
const NoticeEvery = 24 * time.Hour

// FollowRate bounds follow and unfollow calls per user (a toggling script
// gains nothing, but each call is a write).
var FollowRate = struct {
	N   int
	Per time.Duration
}{60, time.Minute}

var (
	// ErrNoUser: the user to follow or look at does not exist (404).
	ErrNoUser = errors.New("community: no such user")
	// ErrSelf: a user cannot follow themselves (422).
	ErrSelf = errors.New("community: cannot follow yourself")
	// ErrGuest: guests cannot follow (403).
	ErrGuest = errors.New("community: guests cannot follow")
)

// LikesReceived counts the likes other users gave to a user's videos (the
// catalog implements it: videos whose media asset the user owns).
type LikesReceived interface {
	LikesReceived(ctx context.Context, uid int64) (int64, error)
}

// Tiers reads a user's membership tiers and free windows, db.ErrNotFound
// for no such user (membership.Service implements it: the columns are
// membership's to read).
type Tiers interface {
	Tiers(ctx context.Context, uid int64) (membership.User, error)
}

// PostPurchases answers whether a user bought a paid post (the wallet
// implements it over its purchase table).
type PostPurchases interface {
	HasBoughtPost(ctx context.Context, uid, postID int64) (bool, error)
}

// ModuleKind is a catalogue module's parent (0 for a top-level one) and
// type, db.ErrNotFound when there is none, read on q (catalog.ModuleKind:
// catalog owns modules).
type ModuleKind func(ctx context.Context, q db.Querier, id int64) (pid int64, moduleType int, err error)

var errNoModules = errors.New("community: Modules is not wired")

// PeopleOn reads the users among uids as cards on q, by uid, in one query;
// a uid with no user is absent (account.Cards: account owns users).
type PeopleOn func(ctx context.Context, q db.Querier, uids []int64) (map[int64]account.Card, error)

var errNoPeople = errors.New("community: People is not wired")

// people reads uids through People.
func (s *Service) people(ctx context.Context, q db.Querier, uids []int64) (map[int64]account.Card, error) {
	if s.People == nil {
		return nil, errNoPeople
	}
	return s.People(ctx, q, uids)
}

// AssetOn reads an upload on q, media.ErrNotFound when there is none
// (media.AssetOn: media owns media_assets).
type AssetOn func(ctx context.Context, q db.Querier, id int64) (media.Asset, error)

var errNoAssets = errors.New("community: Assets is not wired")

// Words refuses text holding a blocked word with an error the handlers
// answer as it is (422 naming the word; wordfilter.Service implements it).
type Words interface {
	Check(ctx context.Context, text string) error
}

// checkWords applies Words to each text.
func (s *Service) checkWords(ctx context.Context, texts ...string) error {
	if s.Words == nil {
		return nil
	}
	for _, t := range texts {
		if err := s.Words.Check(ctx, t); err != nil {
			return err
		}
	}
	return nil
}

// Service applies the follow rules.
type Service struct {
	db *db.DB
	// Events carries the follow notice's notice.new; nil sends nothing.
	Events realtime.Publisher
	// Limiter bounds follow calls (FailOpen); nil applies no limit.
	Limiter ratelimit.Limiter
	// Likes fills Extension.likeCount; nil counts 0.
	Likes LikesReceived
	// Media signs posts' pictures and videos; nil shows posts without them.
	Media *media.Service
	// Tiers and Purchases decide a paid post's access; the app wires
	// membership and the wallet; without them a paid post's detail is an
	// error (errNoAccessRule), never a guess.
	Tiers     Tiers
	Purchases PostPurchases
	// Modules checks the community sub-module a post is filed under.
	Modules ModuleKind
	// Assets checks the uploads a post is made of.
	Assets AssetOn
	// People names the users of follow lists, post cards and people
	// search, and tells guests apart.
	People PeopleOn
	// Words refuses posts and comments holding a blocked word (the app
	// wires internal/wordfilter); nil checks nothing.
	Words Words
	now   func() time.Time
}

// NewService is the community over d.
func NewService(d *db.DB) *Service { return &Service{db: d, now: time.Now} }

// SetClock replaces the clock (tests).
func (s *Service) SetClock(now func() time.Time) { s.now = now }

// FollowResult answers POST /api/app/mine/follow.
type FollowResult struct {
	FollowUID int64 `json:"followUID"`
	IsFollow  bool  `json:"isFollow"`
	FansCount int64 `json:"fansCount"`
}

// Follow makes follower follow (on) or stop following (!on) followee. It is
// idempotent: following twice is one follow, unfollowing a user one does
// not follow changes nothing. A new follow notices followee, at most once
// per NoticeEvery per pair, in the same transaction.
func (s *Service) Follow(ctx context.Context, follower, followee int64, on bool) (FollowResult, error) {
	if follower == followee {
		return FollowResult{}, ErrSelf
	}
	if s.Limiter != nil {
		if err := ratelimit.Enforce(ctx, s.Limiter, "follow:uid:"+strconv.FormatInt(follower, 10), FollowRate.N, FollowRate.Per, ratelimit.FailOpen); err != nil {
			return FollowResult{}, err
		}
	}
	now := s.now()
	out := FollowResult{FollowUID: followee, IsFollow: on}
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		me, err := s.userCard(ctx, tx, follower)
		if err != nil {
			return err
		}
		if me.guest {
			return ErrGuest
		}
		if _, err := s.userCard(ctx, tx, followee); err != nil {
			return err
		}
		if !on {
			if err := deleteFollow(ctx, tx, follower, followee); err != nil {
				return err
			}
		} else {
			added, err := insertFollow(ctx, tx, follower, followee, now.Unix())
			if err != nil {
				return err
			}
			if added {
				due, err := markNotice(ctx, tx, follower, followee, now.Unix(), int64(NoticeEvery/time.Second))
				if err != nil {
					return err
				}
				if due {
					err = messaging.Notify(ctx, tx, s.Events, messaging.Notice{
						UserID: followee, Category: messaging.CategoryInteraction, Kind: "follow",
						ActorID: follower, Title: "关注了你", Ref: strconv.FormatInt(follower, 10),
					}, now)
					if err != nil {
						return err
					}
				}
			}
		}
		out.FansCount, err = countFans(ctx, tx, followee)
		return err
	})
	if err != nil {
		return FollowResult{}, err
	}
	return out, nil
}

// IsFollowing reports whether follower follows followee (account.Follows).
func (s *Service) IsFollowing(ctx context.Context, follower, followee int64) (bool, error) {
	m, err := following(ctx, s.db, follower, []int64{followee})
	return m[followee], err
}

// Extension is a user's counts (GET /api/app/mine/getUserExtension).
type Extension struct {
	UID         int64 `json:"uid"`
	FollowCount int64 `json:"followCount"` // users they follow
	FansCount   int64 `json:"fansCount"`   // users following them
	// LikeCount is the likes other users gave to videos made from the
	// user's uploads (LikesReceived).
	LikeCount int64 `json:"likeCount"`
	// PostCount counts the user's published posts.
	PostCount int64 `json:"postCount"`
}

// Extension is user uid's counts.
func (s *Service) Extension(ctx context.Context, uid int64) (Extension, error) {
	if _, err := s.userCard(ctx, s.db, uid); err != nil {
		return Extension{}, err
	}
	out := Extension{UID: uid}
	var err error
	if out.FollowCount, out.FansCount, err = counts(ctx, s.db, uid); err != nil {
		return Extension{}, err
	}
	if out.PostCount, err = postCount(ctx, s, uid); err != nil {
		return Extension{}, fmt.Errorf("post count: %w", err)
	}
	if s.Likes != nil {
		if out.LikeCount, err = s.Likes.LikesReceived(ctx, uid); err != nil {
			return Extension{}, fmt.Errorf("likes received: %w", err)
		}
	}
	return out, nil
}
