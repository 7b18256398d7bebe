// Package messaging holds what users are told and what they say to each
// other: notices (system and interaction) and, beside them, direct
// messages. Other domains write a notice through Notify inside their own
// transaction, so a notice exists exactly when the change it tells of does.
package messaging

import (
	"context"
	"errors"
	"time"
	"unicode/utf8"

	"prima/internal/platform/db"
	"prima/internal/platform/realtime"
)

// Notice categories: the message centre shows one list per category.
const (
	// CategorySystem: the platform speaks (withdrawals, feedback replies,
	// creator applications, operator actions).
	CategorySystem = "system"
	// CategoryInteraction: another user did something to the user's things
	// (liked, commented, followed). ActorID names them.
	CategoryInteraction = "interaction"
)

// EventNotice is the realtime event a user's open apps receive when a notice
// is written for them: {"category": ..., "kind": ...}. It is a hint to
// refetch the message centre and the badge, like every realtime event.
const EventNotice = "notice.new"

// Limits of a notice's text, in characters; longer text is cut, since a
// notice is written by the server, never refused for the writer's wording.
const (
	maxTitle = 100
	maxBody  = 2000
)

// Notice is one row of notices. Kind is a short name of what happened
// ("withdraw", "follow", "like", "feedback_reply", ...); Ref what it is
// about (an order number, a video id, a uid), as the kind defines.
type Notice struct {
	UserID   int64
	Category string
	Kind     string
	ActorID  int64 // the user who caused it; 0 for the system
	Title    string
	Body     string
	Ref      string
}

var errNotice = errors.New("messaging: a notice needs a user, a known category, a kind and a title")

// Notify writes n inside tx and, once tx commits, tells the user's open apps
// (pub may be nil: nothing is published). A notice a user causes to
// themselves (liking their own video) is not written.
func Notify(ctx context.Context, tx *db.Tx, pub realtime.Publisher, n Notice, now time.Time) error {
	if n.UserID <= 0 || n.Kind == "" || n.Title == "" || (n.Category != CategorySystem && n.Category != CategoryInteraction) {
		return errNotice
	}
	if n.ActorID != 0 && n.ActorID == n.UserID {
		return nil
	}
	_, err := tx.Exec(ctx, `INSERT INTO notices (user_id, category, kind, actor_id, title, body, ref, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		n.UserID, n.Category, n.Kind, n.ActorID, cut(n.Title, maxTitle), cut(n.Body, maxBody), n.Ref, now.Unix())
	if err != nil {
		return err
	}
	uid, data := n.UserID, map[string]string{"category": n.Category, "kind": n.Kind}
	tx.AfterCommit(func() {
		realtime.Notify(context.Background(), pub, realtime.UserTopic(uid), EventNotice, data)
	})
	return nil
}

// NotifyOnce is Notify unless n's user was already told of the same kind,
// actor and ref within every before now: liking, unliking and liking again
// is one notice. It runs inside tx, so the check and the write stand with
// the change they tell of.
func NotifyOnce(ctx context.Context, tx *db.Tx, pub realtime.Publisher, n Notice, every time.Duration, now time.Time) error {
	var recent int
	if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM notices WHERE user_id = ? AND kind = ? AND actor_id = ? AND ref = ? AND created_at > ?`,
		n.UserID, n.Kind, n.ActorID, n.Ref, now.Add(-every).Unix()).Scan(&recent); err != nil || recent > 0 {
		return err
	}
	return Notify(ctx, tx, pub, n, now)
}

// cut keeps the first n characters of s.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n])
}
