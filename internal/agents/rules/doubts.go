package rules

import (
	"cmp"
	"math"
	"slices"

	"github.com/tutord/tutord/internal/tutor"
)

// passage is what the engine can say about one concept: the sentences of
// the explanations of its steps, with their terms, and the terms of its
// name and step titles.
type passage struct {
	concept string // "" for the guideline's own text
	title   map[string]bool
	body    map[string]bool
	sents   []string
	terms   [][]string // the terms of each sentence
}

// passages returns one passage per plan concept that has an explanation,
// in plan order. The guideline's teaching approach is written for
// teachers, not learners, so it is a passage only when no step has content
// of its own (a plan without the default plan's steps, which teach from
// it).
func passages(t *tutor.Topic) []passage {
	var out []passage
	for _, c := range t.Concepts() {
		p := passage{concept: c, title: map[string]bool{}, body: map[string]bool{}}
		for _, st := range t.Steps {
			if st.Concept != c {
				continue
			}
			for _, w := range terms(st.Concept + " " + st.Title) {
				p.title[w] = true
			}
			for _, para := range paragraphs(st.Content) {
				for _, s := range sentences(para) {
					if !slices.Contains(p.sents, s) {
						p.add(s)
					}
				}
			}
		}
		if len(p.sents) > 0 {
			out = append(out, p)
		}
	}
	if len(out) > 0 {
		return out
	}
	g := passage{title: map[string]bool{}, body: map[string]bool{}}
	for _, para := range paragraphs(t.Guideline.TeachingApproach) {
		for _, s := range sentences(para) {
			g.add(s)
		}
	}
	if len(g.sents) > 0 {
		out = append(out, g)
	}
	return out
}

func (p *passage) add(s string) {
	ts := terms(s)
	p.sents = append(p.sents, s)
	p.terms = append(p.terms, ts)
	for _, w := range ts {
		p.body[w] = true
	}
}

// weights gives each term the inverse of how often the topic's sentences
// use it, log(1 + sentences/uses): a word in every sentence of a lesson on
// fractions ("fraction") says little about which sentence answers a doubt;
// a rare one ("keep", "stomata") says much. A term the topic never uses
// weighs most of all (the second result).
func weights(ps []passage) (map[string]float64, float64) {
	uses, n := map[string]int{}, 0
	for _, p := range ps {
		for _, ts := range p.terms {
			n++
			for _, w := range ts {
				uses[w]++
			}
		}
		for w := range p.title {
			if !p.body[w] {
				uses[w]++
			}
		}
	}
	out := make(map[string]float64, len(uses))
	for w, u := range uses {
		out[w] = math.Log1p(float64(n) / float64(u))
	}
	return out, math.Log1p(float64(n))
}

// minCoverage is the share of a question's term weight that a passage must
// share for the engine to answer from it. Below it the question is about
// something the lesson does not explain ("how do I add fractions" in a
// lesson on photosynthesis shares only "add"), and the honest reply is to
// say so rather than quote an unrelated sentence.
const minCoverage = 0.5

// score returns the passage's relevance to a question's terms, each
// shared term counting its weight, twice when it is in the concept's name
// or step titles; and the share of the question's weight the passage
// covers. Weighted word overlap is crude, but it is deterministic, cheap
// and easy to reason about, and the passages are short and on one topic.
func (p *passage) score(q []string, idf map[string]float64, unknown float64) (float64, float64) {
	var score, covered, total float64
	for _, w := range q {
		wt, ok := idf[w]
		if !ok {
			wt = unknown
		}
		total += wt
		if p.title[w] {
			score += 2 * wt
		}
		if p.body[w] {
			score += wt
		}
		if p.title[w] || p.body[w] {
			covered += wt
		}
	}
	if total == 0 {
		return 0, 0
	}
	return score, covered / total
}

// explain answers a question from the topic: the (at most n) sentences of
// the most relevant passage that share the most weight of terms with the
// question (none that share nothing, unless no sentence shares anything),
// in their original order, keeping only sentences that keep
// accepts (nil keeps all). It returns the passage's concept and false when
// no passage covers enough of the question (minCoverage). Ties go to the
// earlier passage and sentence.
func explain(t *tutor.Topic, question string, n int, keep func(string) bool) (string, []string, bool) {
	q := terms(question)
	if len(q) == 0 || t == nil {
		return "", nil, false
	}
	ps := passages(t)
	idf, unknown := weights(ps)
	best, top := -1, 0.0
	for i := range ps {
		if s, c := ps[i].score(q, idf, unknown); s > top && c >= minCoverage {
			best, top = i, s
		}
	}
	if best < 0 {
		return "", nil, false
	}
	p := ps[best]
	type scored struct {
		i int
		w float64
	}
	var ranked []scored
	for i, ts := range p.terms {
		if keep != nil && !keep(p.sents[i]) {
			continue
		}
		var w float64
		for _, x := range ts {
			if slices.Contains(q, x) {
				w += idf[x]
			}
		}
		ranked = append(ranked, scored{i, w})
	}
	// Most weight first; a stable sort keeps ties in text order. Sentences
	// sharing nothing with the question are used only when none does (the
	// question matched the concept's name): then the first ones.
	slices.SortStableFunc(ranked, func(a, b scored) int { return cmp.Compare(b.w, a.w) })
	ranked = ranked[:min(n, len(ranked))]
	if len(ranked) > 0 && ranked[0].w > 0 {
		ranked = slices.DeleteFunc(ranked, func(r scored) bool { return r.w == 0 })
	}
	slices.SortFunc(ranked, func(a, b scored) int { return a.i - b.i })
	var out []string
	for _, r := range ranked {
		out = append(out, p.sents[r.i])
	}
	return p.concept, out, len(out) > 0
}
