package main

import (
	"io"
	"log/slog"
	"os"

	"github.com/tutord/tutord/internal/config"
)

// newLogger returns the process logger: JSON unless the format is text, or
// auto and w is a terminal.
func newLogger(cfg config.Config, w io.Writer) *slog.Logger {
	level, _ := config.ParseLevel(cfg.LogLevel) // validated already
	opts := &slog.HandlerOptions{Level: level}
	text := cfg.LogFormat == "text" || (cfg.LogFormat == "auto" && isTerminal(w))
	if text {
		return slog.New(slog.NewTextHandler(w, opts))
	}
	return slog.New(slog.NewJSONHandler(w, opts))
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
