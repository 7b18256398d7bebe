package app_test

import (
	"context"
	"testing"
	"time"

	"prima/internal/apitest"
	"prima/internal/app/apptest"
	"prima/internal/backup"
	"prima/internal/platform/httpx"
	"prima/internal/platform/jobs"
)

type backupsPage struct {
	Configured bool             `json:"configured"`
	Place      string           `json:"place"`
	Every      int64            `json:"everySeconds"`
	Keep       int              `json:"keep"`
	Backups    []backup.Summary `json:"backups"`
	Runs       []jobs.Run       `json:"runs"`
}

// The owner's backups page: the schedule, the finished backups with their
// counts, a backup now (once a minute however often clicked, audited,
// step-up), refused without a place and to every other role.
func TestOperatorBackups(t *testing.T) {
	dir := t.TempDir()
	s := apptest.New(t, "sqlite", "-backup-to", dir, "-backup-keep", "3")
	owner := operatorToken(t, s)
	finance := s.Operator(t, "fin_1", httpx.RoleFinance).Token

	res := apitest.Scenario{URL: "/api/admin/backups", Token: owner, ExpectedStatus: 200}.Run(t, s.Handler)
	p := apitest.Data[backupsPage](t, res)
	if !p.Configured || p.Place != dir || p.Every != 86400 || p.Keep != 3 || len(p.Backups) != 0 || len(p.Runs) != 0 {
		t.Fatalf("empty: %+v", p)
	}
	apitest.Run(t, s.Handler,
		apitest.Scenario{Name: "finance reads", URL: "/api/admin/backups", Token: finance, ExpectedStatus: 403},
		apitest.Scenario{Name: "finance runs", Method: "POST", URL: "/api/admin/backups", Body: `{}`, Token: finance, ExpectedStatus: 403},
	)
	for range 2 { // a second click in the same minute joins the first
		apitest.Scenario{Method: "POST", URL: "/api/admin/backups", Body: `{}`, Token: owner, ExpectedStatus: 200}.Run(t, s.Handler)
	}
	if n := auditRows(t, s, "backup.run"); n != 1 {
		t.Fatalf("backup.run audit rows: %d", n)
	}
	// The job runs it (here by hand: the test server starts no workers).
	m, err := backup.Run(context.Background(), s.App.DB, s.App.Media, s.App.Backups.To, t.TempDir(), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	res = apitest.Scenario{URL: "/api/admin/backups", Token: owner, ExpectedStatus: 200}.Run(t, s.Handler)
	p = apitest.Data[backupsPage](t, res)
	if len(p.Runs) != 1 || p.Runs[0].State != jobs.Available || len(p.Backups) != 1 || p.Backups[0].Name != m.Name ||
		p.Backups[0].Engine != "sqlite" || p.Backups[0].Database == 0 || p.Backups[0].Schema == "" ||
		time.Since(p.Runs[0].RunAt).Abs() > time.Minute {
		t.Fatalf("after a backup: %+v", p)
	}

	// Without PRIMA_BACKUP_TO: the page says so, a backup now is refused.
	bare := apptest.New(t, "sqlite")
	tok := operatorToken(t, bare)
	p = apitest.Data[backupsPage](t, apitest.Scenario{URL: "/api/admin/backups", Token: tok, ExpectedStatus: 200}.Run(t, bare.Handler))
	if p.Configured || len(p.Backups) != 0 {
		t.Fatalf("unconfigured: %+v", p)
	}
	apitest.Scenario{Method: "POST", URL: "/api/admin/backups", Body: `{}`, Token: tok, ExpectedStatus: 409,
		ExpectedContent: []string{"PRIMA_BACKUP_TO"}}.Run(t, bare.Handler)
	if n := auditRows(t, bare, "backup.run"); n != 0 {
		t.Fatalf("a refused backup wrote %d audit rows", n)
	}
}
