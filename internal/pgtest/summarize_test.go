package pgtest

import (
	"testing"
	"time"
)

func TestSummarize(t *testing.T) {
	tests := []struct {
		name   string
		rounds []round
		want   RoundsResult
	}{
		{
			name: "three rounds: the median ratio, the extremes, the overall rate and the mean pgbench rate",
			rounds: []round{
				{ops: 300, elapsed: time.Second, tps: 500},     // 300/s, ratio 0.6
				{ops: 300, elapsed: 2 * time.Second, tps: 300}, // 150/s, ratio 0.5
				{ops: 400, elapsed: time.Second, tps: 400},     // 400/s, ratio 1.0
			},
			want: RoundsResult{Rate: 250, PgbenchTPS: 400, Ratio: 0.6, RatioMin: 0.5, RatioMax: 1.0},
		},
		{
			name: "a round without operations has no ratio but counts in pgbench's mean",
			rounds: []round{
				{ops: 0, elapsed: 0, tps: 600},
				{ops: 200, elapsed: time.Second, tps: 400}, // ratio 0.5
				{ops: 200, elapsed: time.Second, tps: 200}, // ratio 1.0
			},
			want: RoundsResult{Rate: 200, PgbenchTPS: 400, Ratio: 1.0, RatioMin: 0.5, RatioMax: 1.0},
		},
		{
			name:   "no rounds",
			rounds: nil,
			want:   RoundsResult{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := summarize(tt.rounds)
			if !near(got.Rate, tt.want.Rate) || !near(got.PgbenchTPS, tt.want.PgbenchTPS) ||
				!near(got.Ratio, tt.want.Ratio) || !near(got.RatioMin, tt.want.RatioMin) || !near(got.RatioMax, tt.want.RatioMax) {
				t.Errorf("summarize = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }
