// Command tutord is a stateful tutoring service: learners open sessions on a
// curriculum subtopic and talk to a tutor over WebSocket or REST.
//
// Run `tutord --help` for its commands and settings.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/tutord/tutord/internal/config"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = ""

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// The first signal cancels ctx; a second one then kills tutord, in
	// case whatever it is doing does not heed ctx.
	go func() {
		<-ctx.Done()
		stop()
	}()
	err := run(ctx, os.Args[1:], config.Environ(), os.Stdin, os.Stdout, os.Stderr)
	if err != nil && !errors.Is(err, errHelp) {
		fmt.Fprintf(os.Stderr, "tutord: %v\n", err)
		os.Exit(exitCode(err))
	}
}

// errHelp reports that usage was printed on request.
var errHelp = errors.New("help requested")

// usageError marks a mistake in the command line (exit status 2).
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func exitCode(err error) int {
	var ue usageError
	if errors.As(err, &ue) {
		return 2
	}
	return 1
}

// env bundles what a command reads from its surroundings, so tests can run
// commands in-process with their own.
type env struct {
	environ map[string]string
	stdin   io.Reader
	stdout  io.Writer
	stderr  io.Writer
}
