package seed

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"prima/internal/account"
)

// `make run` prints the demo logins and the README lists them, both by
// hand: each must name every demo account with its password, so a change
// to account.DemoUsers cannot leave a newcomer with logins that fail.
func TestDemoLoginsInMakefileAndReadme(t *testing.T) {
	for _, f := range []struct{ path, format string }{
		{"../../Makefile", "%s / %s"},
		{"../../README.md", "| `%s` | `%s` |"},
	} {
		b, err := os.ReadFile(f.path)
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range account.DemoUsers {
			want := fmt.Sprintf(f.format, u.Account, u.Password)
			if !strings.Contains(string(b), want) {
				t.Errorf("%s does not give the login %q", f.path, want)
			}
		}
	}
}
