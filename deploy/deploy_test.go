// Package deploy_test checks the deploy files against the code they
// configure: every setting they name exists, every command they run is a
// prima command, every metric the alerts and the dashboard read is one
// Prima exports, and the tools that read them (HAProxy, Caddy) accept
// them. The cluster test (deploy/clustertest) runs haproxy.cfg for real.
package deploy_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"prima/internal/app/apptest"
	"prima/internal/platform/config"
)

// files are the deploy files, by path relative to deploy/.
func files(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(".", func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || strings.HasSuffix(p, ".go") {
			return nil
		}
		b, err := os.ReadFile(p)
		out[p] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Every PRIMA_ variable a deploy file sets is a setting of prima (or one
// of the balancer's own, PRIMA_LB_LISTEN and PRIMA_NODEn, or the cluster
// test's PRIMA_CLUSTER_*).
func TestSettingsAreReal(t *testing.T) {
	known := config.EnvNames()
	re := regexp.MustCompile(`PRIMA_[A-Z0-9_]+`)
	seen := 0
	for name, body := range files(t) {
		for _, v := range re.FindAllString(body, -1) {
			seen++
			if slices.Contains(known, v) || v == "PRIMA_LB_LISTEN" || regexp.MustCompile(`^PRIMA_NODE\d$`).MatchString(v) ||
				strings.HasPrefix(v, "PRIMA_CLUSTER_") {
				continue
			}
			t.Errorf("%s names %s, which prima does not read", name, v)
		}
	}
	if seen < 30 {
		t.Fatalf("only %d settings named in deploy/: the scan is broken", seen)
	}
}

var commands = []string{"serve", "worker", "migrate", "doctor", "backup", "restore", "wallet", "audit", "seed"}

// The systemd units run prima's commands from the installed binary with
// the documented environment file.
func TestSystemdUnits(t *testing.T) {
	units, _ := filepath.Glob("systemd/*.service")
	if len(units) != 3 {
		t.Fatalf("units: %v", units)
	}
	for _, u := range units {
		b, _ := os.ReadFile(u)
		s := string(b)
		for _, section := range []string{"[Unit]", "[Service]", "[Install]"} {
			if !strings.Contains(s, section) {
				t.Errorf("%s has no %s", u, section)
			}
		}
		if !strings.Contains(s, "EnvironmentFile=/etc/prima/prima.env") {
			t.Errorf("%s does not read /etc/prima/prima.env (prima.env.example)", u)
		}
		for _, m := range regexp.MustCompile(`(?m)^Exec\w+=(\S+) (\w+)`).FindAllStringSubmatch(s, -1) {
			if m[1] != "/usr/local/bin/prima" || !slices.Contains(commands, m[2]) {
				t.Errorf("%s runs %s %s", u, m[1], m[2])
			}
		}
	}
}

// The compose file: the services the docs name, prima's commands, the
// balancer on deploy/haproxy.cfg pointing at the serve services.
func TestComposeFile(t *testing.T) {
	var c struct {
		Services map[string]struct {
			Command     []string          `yaml:"command"`
			Image       string            `yaml:"image"`
			Environment map[string]string `yaml:"environment"`
			Volumes     []string          `yaml:"volumes"`
			Build       struct {
				Context    string `yaml:"context"`
				Dockerfile string `yaml:"dockerfile"`
			} `yaml:"build"`
		} `yaml:"services"`
	}
	b, err := os.ReadFile("compose.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(b, &c); err != nil {
		t.Fatalf("compose.yaml: %v", err)
	}
	for _, name := range []string{"postgres", "redis", "s3", "migrate", "n1", "n2", "n3", "worker", "lb"} {
		if _, ok := c.Services[name]; !ok {
			t.Errorf("compose.yaml has no service %s", name)
		}
	}
	for name, s := range c.Services {
		if s.Image != "prima:latest" {
			continue
		}
		if len(s.Command) == 0 || !slices.Contains(commands, s.Command[0]) {
			t.Errorf("service %s runs %v", name, s.Command)
		}
		if _, err := os.Stat(filepath.Join(s.Build.Context, s.Build.Dockerfile)); err != nil {
			t.Errorf("service %s builds from %s: %v", name, s.Build.Dockerfile, err)
		}
		if s.Environment["PRIMA_SHUTDOWN_DRAIN"] == "" || s.Environment["PRIMA_SECRET"] == "" {
			t.Errorf("service %s lacks the cluster settings: %v", name, s.Environment)
		}
	}
	if w := c.Services["worker"].Environment["PRIMA_WORKERS"]; w == "" || w == "0" {
		t.Errorf("the worker runs %q jobs", w)
	}
	lb := c.Services["lb"]
	if !slices.Contains(lb.Volumes, "./haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro") {
		t.Errorf("lb does not use deploy/haproxy.cfg: %v", lb.Volumes)
	}
	for _, n := range []string{"1", "2", "3"} {
		if lb.Environment["PRIMA_NODE"+n] != "n"+n+":8080" {
			t.Errorf("lb PRIMA_NODE%s = %q", n, lb.Environment["PRIMA_NODE"+n])
		}
	}
}

// The Dockerfile builds with the Go of go.mod and copies what exists.
func TestDockerfile(t *testing.T) {
	b, _ := os.ReadFile("Dockerfile")
	mod, _ := os.ReadFile("../go.mod")
	goVer := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindStringSubmatch(string(mod))
	if goVer == nil || !strings.Contains(string(b), "FROM golang:"+goVer[1]+"-") {
		t.Errorf("Dockerfile's Go image is not go.mod's Go %v", goVer)
	}
	for _, m := range regexp.MustCompile(`(?m)^COPY (\S+)`).FindAllStringSubmatch(string(b), -1) {
		if strings.HasPrefix(m[1], "--from") || m[1] == "." {
			continue
		}
		if _, err := os.Stat(filepath.Join("..", m[1])); err != nil {
			t.Errorf("Dockerfile copies %s: %v", m[1], err)
		}
	}
}

// HAProxy and Caddy accept their files (the cluster test runs HAProxy's).
func TestProxyConfigsValidate(t *testing.T) {
	cmd := exec.Command("haproxy", "-c", "-f", "haproxy.cfg")
	cmd.Env = append(os.Environ(), "PRIMA_LB_LISTEN=127.0.0.1:8080", "PRIMA_NODE1=127.0.0.1:8081", "PRIMA_NODE2=127.0.0.1:8082", "PRIMA_NODE3=127.0.0.1:8083")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("haproxy -c: %v\n%s (apt-get install haproxy)", err, out)
	}
	if out, err := exec.Command("caddy", "validate", "--config", "Caddyfile", "--adapter", "caddyfile").CombinedOutput(); err != nil ||
		!bytes.Contains(out, []byte("Valid configuration")) {
		t.Errorf("caddy validate: %v\n%s (apt-get install caddy)", err, out)
	}
}

// Every metric the alerts and the dashboard read is one a running Prima
// exports.
func TestMonitoringReadsRealMetrics(t *testing.T) {
	var exprs []string
	var rules struct {
		Groups []struct {
			Rules []struct {
				Alert string `yaml:"alert"`
				Expr  string `yaml:"expr"`
			} `yaml:"rules"`
		} `yaml:"groups"`
	}
	b, _ := os.ReadFile("prometheus/alerts.yml")
	if err := yaml.Unmarshal(b, &rules); err != nil || len(rules.Groups) == 0 {
		t.Fatalf("alerts.yml: %v", err)
	}
	for _, g := range rules.Groups {
		for _, r := range g.Rules {
			if r.Alert == "" || r.Expr == "" {
				t.Errorf("alert rule without a name or expression: %+v", r)
			}
			exprs = append(exprs, r.Expr)
		}
	}
	var prom struct {
		RuleFiles []string `yaml:"rule_files"`
		Scrape    []struct {
			JobName string `yaml:"job_name"`
		} `yaml:"scrape_configs"`
	}
	b, _ = os.ReadFile("prometheus/prometheus.yml")
	if err := yaml.Unmarshal(b, &prom); err != nil || len(prom.Scrape) == 0 || prom.Scrape[0].JobName != "prima" ||
		!slices.Contains(prom.RuleFiles, "alerts.yml") {
		t.Fatalf("prometheus.yml: %v %+v", err, prom)
	}
	var dash struct {
		Panels []struct {
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
	}
	b, _ = os.ReadFile("grafana/prima.json")
	if err := json.Unmarshal(b, &dash); err != nil || len(dash.Panels) == 0 {
		t.Fatalf("grafana/prima.json: %v", err)
	}
	for _, p := range dash.Panels {
		for _, tg := range p.Targets {
			exprs = append(exprs, tg.Expr)
		}
	}

	s := apptest.New(t, "sqlite")
	rec := httptest.NewRecorder()
	s.Handler.ServeHTTP(rec, httptest.NewRequest("GET", "/api/app/ping/check", nil))
	srv := httptest.NewServer(s.App.Metrics.Handler())
	defer srv.Close()
	res, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	exported := string(body)
	metric := regexp.MustCompile(`\b((?:prima|go|process)_[a-z_]+)\b`)
	n := 0
	for _, e := range exprs {
		for _, m := range metric.FindAllString(e, -1) {
			n++
			if !regexp.MustCompile(`(?m)^` + m + `[ {]`).MatchString(exported) {
				t.Errorf("%q reads %s, which Prima does not export", e, m)
			}
		}
	}
	if n < 10 {
		t.Fatalf("only %d metric names read from the alerts and dashboard", n)
	}
}
