package httpx

import "context"

// Role is what a signed-in user may do beyond using the app.
type Role string

const (
	// RoleUser is everyone: guests and registered users.
	RoleUser Role = "user"
	// RoleOperator may call /api/admin/...: the install's staff.
	RoleOperator Role = "operator"
)

// Valid reports whether r is a role the users table can hold.
func (r Role) Valid() bool { return r == RoleUser || r == RoleOperator }

// Principal is who a request acts for: the user of its valid token and that
// user's role as stored when the request began.
type Principal struct {
	UID  int64
	Role Role
}

// IsOperator reports whether p may use the operator API.
func (p Principal) IsOperator() bool { return p.Role == RoleOperator }

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
