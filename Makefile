# Prima: `make run` serves the demo on http://localhost:8080 (PRIMA_LISTEN moves it), `make test`
# runs every test (about 17-18 minutes on 2 cores).
GO      ?= go
NPM     ?= npm
BIN     := bin/prima
DATA    ?= ./data

.PHONY: run build web web-deps console console-deps test test-go test-web test-console e2e e2e-deps bench clean

# make run keeps the build's and the seed's output in $(RUNLOG) and shows
# its end only when a step fails, so what to open and how to sign in is the
# last thing on the screen before the server's own log. The demo logins are
# account.DemoUsers (internal/seed's tests check this list against them).
RUNLOG := bin/make-run.log
LISTEN := $(or $(PRIMA_LISTEN),:8080)
URL    := http://$(if $(filter :%,$(LISTEN)),localhost$(LISTEN),$(LISTEN))

run:
	@mkdir -p bin && : >$(RUNLOG)
	@echo "Building the web app and $(BIN) (a few minutes the first time; output in $(RUNLOG)) ..."
	@$(MAKE) --no-print-directory build >>$(RUNLOG) 2>&1 || { tail -n 40 $(RUNLOG); echo "make run: the build failed; its whole output is in $(RUNLOG)"; exit 1; }
	@echo "Seeding the demo catalogue into $(DATA) ..."
	@$(BIN) seed -data-dir $(DATA) >>$(RUNLOG) 2>&1 || { tail -n 40 $(RUNLOG); echo "make run: the seed failed; its whole output is in $(RUNLOG)"; exit 1; }
	@printf '%s\n' '' \
	  '  Prima is starting. Open $(URL) in a browser (on a desktop the phone app' \
	  '  shows in a phone-wide column; a phone on your network uses this machine by its address).' \
	  '' \
	  '  The app signs you in as a guest. To use a demo account: 我的 (Me) -> 登录, then' \
	  '    demo / demo123          a plain user' \
	  '    vipdemo / vip123        a VIP' \
	  '    svipdemo / svip123      a super VIP' \
	  '' \
	  '  An operator account: in another terminal,' \
	  '    $(BIN) admin create -data-dir $(DATA) -account ops_1' \
	  '  then open $(URL)/admin/ (the operator console) and sign in as ops_1: the' \
	  '  first sign-in binds an authenticator app (docs/operator-guide.md).' \
	  '  Ctrl-C stops the server; the data stays in $(DATA).' \
	  '' \
	  '  Top-ups and VIP cards are paid on the built-in sandbox page (PRIMA_PAY_SANDBOX=1):' \
	  '  no real money moves; a production install leaves it off.' ''
	PRIMA_PAY_SANDBOX=1 $(BIN) serve -data-dir $(DATA)

build: web console
	$(GO) build -trimpath -o $(BIN) ./cmd/prima

web-deps: web/node_modules/.package-lock.json
web/node_modules/.package-lock.json: web/package.json web/package-lock.json
	cd web && $(NPM) ci --no-audit --no-fund
	@touch $@

# Vite writes into web/dist; the placeholder file that keeps go:embed happy stays.
web: web-deps
	find web/dist -mindepth 1 ! -name .keep -delete 2>/dev/null || true
	cd web && $(NPM) run build

# The operator console (console/, served at /admin/) is its own Vite
# project with its own lock, so it never shares a chunk with the phone app.
console-deps: console/node_modules/.package-lock.json
console/node_modules/.package-lock.json: console/package.json console/package-lock.json
	cd console && $(NPM) ci --no-audit --no-fund
	@touch $@

# Vite writes into console/dist; the placeholder that keeps go:embed happy stays.
console: console-deps
	find console/dist -mindepth 1 ! -name .keep -delete 2>/dev/null || true
	cd console && $(NPM) run build

test: test-go test-web test-console e2e

# The S3 store's tests run against versitygw, a real S3 server, built once
# per version into the user cache dir (where internal/platform/blob/s3test
# looks for it; PRIMA_VERSITYGW overrides). About 90 s the first time.
VERSITYGW_VERSION := v1.8.0
VERSITYGW := $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/prima/versitygw-$(VERSITYGW_VERSION)/versitygw
.PHONY: versitygw
versitygw: $(if $(PRIMA_VERSITYGW),,$(VERSITYGW))
$(VERSITYGW):
	GOBIN=$(abspath $(dir $@)) $(GO) install github.com/versity/versitygw/cmd/versitygw@$(VERSITYGW_VERSION)

# npm packages may ship Go files (flatted does); go's ./... would vet and
# test them as ours, so the package list leaves node_modules out.
GOPKGS = $$($(GO) list ./... | grep -v /node_modules/)

test-go: versitygw
	$(GO) vet $(GOPKGS)
	$(GO) test -count=1 -timeout 25m $(GOPKGS)

test-web: web-deps
	cd web && $(NPM) run typecheck && $(NPM) run lint && $(NPM) test

test-console: console-deps
	cd console && $(NPM) run typecheck && $(NPM) run lint && $(NPM) test

e2e-deps: e2e/node_modules/.package-lock.json
e2e/node_modules/.package-lock.json: e2e/package.json e2e/package-lock.json
	cd e2e && $(NPM) ci --no-audit --no-fund
	@touch $@

e2e: build e2e-deps
	cd e2e && $(NPM) test

# The cluster under a fault (docs/deploy.md, *The cluster*): minutes long,
# needs haproxy and redis-server; not part of make test.
.PHONY: cluster-test
cluster-test:
	deploy/cluster-test

bench: build
	$(GO) run ./bench/cmd/bench

clean:
	rm -rf bin web/node_modules console/node_modules e2e/node_modules e2e/artifacts
	find web/dist -mindepth 1 ! -name .keep -delete 2>/dev/null || true
	find console/dist -mindepth 1 ! -name .keep -delete 2>/dev/null || true
