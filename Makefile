# tutord — the two commands of the README are `make run` and `make test`.
GO ?= go
PKGS := ./...

.PHONY: run build test check bench eval clean

## run: run the service on :8080 with the embedded database and the rules engine
run:
	$(GO) run ./cmd/tutord serve

## build: build bin/tutord
build:
	$(GO) build -o bin/tutord ./cmd/tutord

## test: formatting and vet checks, then every test
test: check
	$(GO) test -count=1 -timeout 15m $(PKGS)

## check: gofmt and go vet
check:
	@unformatted=$$(gofmt -l .); \
	if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet $(PKGS)

## bench: benchmarks beside pgbench (same server, same sitting), WAL per turn, progress queries
bench:
	$(GO) test -run '^$$' -bench 'BenchmarkCommitTurn' -benchtime 20000x -timeout 30m ./internal/store/
	$(GO) test -run '^$$' -bench 'BenchmarkTurnWAL' -benchtime 1x ./internal/store/
	$(GO) test -run '^$$' -bench 'BenchmarkProcessTurn' -benchtime 10000x -timeout 30m ./internal/orchestrator/
	$(GO) test -run '^$$' -bench 'BenchmarkProgress' -benchtime 1000x -v ./internal/store/
	$(GO) test -run '^$$' -bench . -benchmem ./internal/tutor/ ./internal/tutor/answer/ ./internal/llm/

## eval: the starter scenario suite against a throwaway tutord (rules engine)
eval:
	$(GO) run ./cmd/tutord eval run eval/suites/core --embedded --concurrency 8 --out eval-report

clean:
	rm -rf bin eval-report
