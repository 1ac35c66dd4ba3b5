package llm

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the run if a test leaves goroutines behind: a stream that
// is not closed, a hung request that outlives its deadline, a timer.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
