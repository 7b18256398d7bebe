# Prima: `make run` serves the demo on http://localhost:8080, `make test` runs every test.
GO      ?= go
NPM     ?= npm
BIN     := bin/prima
DATA    ?= ./data

.PHONY: run build web web-deps test test-go test-web e2e e2e-deps bench clean

run: build
	$(BIN) seed -data-dir $(DATA)
	PRIMA_PAY_SANDBOX=1 $(BIN) serve -data-dir $(DATA)

build: web
	$(GO) build -trimpath -o $(BIN) ./cmd/prima

web-deps: web/node_modules/.package-lock.json
web/node_modules/.package-lock.json: web/package.json web/package-lock.json
	cd web && $(NPM) ci --no-audit --no-fund
	@touch $@

# Vite writes into web/dist; the placeholder file that keeps go:embed happy stays.
web: web-deps
	find web/dist -mindepth 1 ! -name .keep -delete 2>/dev/null || true
	cd web && $(NPM) run build

test: test-go test-web e2e

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
	$(GO) test -count=1 $(GOPKGS)

test-web: web-deps
	cd web && $(NPM) run typecheck && $(NPM) run lint && $(NPM) test

e2e-deps: e2e/node_modules/.package-lock.json
e2e/node_modules/.package-lock.json: e2e/package.json e2e/package-lock.json
	cd e2e && $(NPM) ci --no-audit --no-fund
	@touch $@

e2e: build e2e-deps
	cd e2e && $(NPM) test

bench: build
	$(GO) run ./bench/cmd/bench

clean:
	rm -rf bin web/node_modules e2e/node_modules e2e/artifacts
	find web/dist -mindepth 1 ! -name .keep -delete 2>/dev/null || true
