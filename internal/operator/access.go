package operator

import (
	"slices"

	"prima/internal/platform/httpx"
)

// Access is what an /api/admin route asks of its caller: the console roles
// it opens to (owner always), whether it needs a fresh step-up (a TOTP or
// recovery code entered in the last StepUpFor), and whether it is for a
// console session only (not an API key). Every /api/admin route names one
// (internal/app/routes.go: op(access, pattern, handler)).
type Access struct {
	roles   []httpx.Role // besides owner
	stepUp  bool
	session bool
	public  bool
}

// Allow opens a route to the owner and roles. Allow() is the owner alone.
// A role that is not a console role is a route-table mistake and panics at
// start-up.
func Allow(roles ...httpx.Role) Access {
	for _, r := range roles {
		if !r.Console() {
			panic("operator: " + string(r) + " is not a console role")
		}
	}
	return Access{roles: slices.Clone(roles)}
}

// Anyone opens a route to every console role.
var Anyone = Allow(httpx.ConsoleRoles...)

// Public marks the console's own sign-in calls: no credential is asked for
// (the IP allowlist and the sign-in limits still apply).
var Public = Access{public: true}

// StepUp is a copy of a that also needs a fresh step-up: a console session
// whose last code is older than StepUpFor gets 403 with data {stepUp:
// true}, and an API key is refused (keys cannot step up).
func (a Access) StepUp() Access {
	a.stepUp = true
	a.session = true
	return a
}

// SessionOnly is a copy of a that a console session may call and an API
// key may not (signing out, stepping up).
func (a Access) SessionOnly() Access {
	a.session = true
	return a
}

// Allows reports whether role may call the route.
func (a Access) Allows(role httpx.Role) bool {
	return role == httpx.RoleOwner || (role.Console() && slices.Contains(a.roles, role))
}

// Roles are the console roles the route opens to, owner first.
func (a Access) Roles() []httpx.Role {
	var out []httpx.Role
	for _, r := range httpx.ConsoleRoles {
		if a.Allows(r) {
			out = append(out, r)
		}
	}
	return out
}

// NeedsStepUp reports whether the route asks for a fresh step-up.
func (a Access) NeedsStepUp() bool { return a.stepUp }

// SessionsOnly reports whether an API key is refused on the route.
func (a Access) SessionsOnly() bool { return a.session }

// IsPublic reports whether the route asks for no credential.
func (a Access) IsPublic() bool { return a.public }

// Route is an /api/admin route and what it asks; the route table keeps
// the list, and the table test calls every one as every role.
type Route struct {
	Pattern string
	Access  Access
}

// Sections the console shows in its menu (GET /api/admin/session).
const (
	SectionDashboard  = "dashboard"
	SectionContent    = "content"
	SectionPeople     = "people"
	SectionModeration = "moderation"
	SectionMoney      = "money"
	SectionGrowth     = "growth"
	SectionAudit      = "audit"
	SectionOperators  = "operators"
	SectionSettings   = "settings"
)

// sections are the console sections each role opens, in menu order; they
// follow the routes each role may call (internal/app/routes.go).
var sections = map[httpx.Role][]string{
	httpx.RoleOwner: {SectionDashboard, SectionContent, SectionPeople, SectionModeration, SectionMoney, SectionGrowth,
		SectionAudit, SectionOperators, SectionSettings},
	httpx.RoleContent:   {SectionDashboard, SectionContent, SectionSettings},
	httpx.RoleModerator: {SectionDashboard, SectionPeople, SectionModeration},
	httpx.RoleFinance:   {SectionDashboard, SectionPeople, SectionMoney, SectionGrowth},
	httpx.RoleSupport:   {SectionDashboard, SectionPeople},
}

// Sections are the console sections role opens.
func Sections(role httpx.Role) []string { return slices.Clone(sections[role]) }
