package httpx

import "context"

// Role is what a signed-in user may do beyond using the app.
//
// Two kinds share the type. A users row holds RoleUser or RoleOperator
// (staff: an account the operator console knows). A console session or an
// API key (internal/operator) carries one of the console roles, which say
// which /api/admin routes it opens: RoleOwner opens every one, the others
// the routes that name them (internal/app/routes.go).
type Role string

const (
	// RoleUser is everyone: guests and registered users.
	RoleUser Role = "user"
	// RoleOperator marks a users row as staff; its console role is the
	// operator's own (internal/operator).
	RoleOperator Role = "operator"

	// The console roles.
	RoleOwner     Role = "owner"     // everything; manages operators
	RoleContent   Role = "content"   // catalogue, media, galleries, lines, configuration
	RoleModerator Role = "moderator" // community moderation, reports, mutes
	RoleFinance   Role = "finance"   // wallet, orders, withdrawals, coupons, codes, rewards
	RoleSupport   Role = "support"   // users (read), feedback, creator applications
)

// ConsoleRoles are the console roles, owner first.
var ConsoleRoles = []Role{RoleOwner, RoleContent, RoleModerator, RoleFinance, RoleSupport}

// Valid reports whether r is a role the users table can hold.
func (r Role) Valid() bool { return r == RoleUser || r == RoleOperator }

// Console reports whether r is a console role.
func (r Role) Console() bool {
	switch r {
	case RoleOwner, RoleContent, RoleModerator, RoleFinance, RoleSupport:
		return true
	}
	return false
}

// Principal is who a request acts for: the user of its valid token and that
// user's role as stored when the request began.
type Principal struct {
	UID  int64
	Role Role
}

// IsOperator reports whether p acts as an operator: a console session or
// an API key (its Role is a console role).
func (p Principal) IsOperator() bool { return p.Role.Console() }

type principalKey struct{}

// WithPrincipal records the signed-in user and role on ctx; the account
// middleware calls it for a valid token. It also answers UserID.
func WithPrincipal(ctx context.Context, p Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// PrincipalFrom is the principal of ctx; ok is false for an anonymous request.
func PrincipalFrom(ctx context.Context) (p Principal, ok bool) {
	p, ok = ctx.Value(principalKey{}).(Principal)
	return p, ok && p.UID != 0
}
