package rules

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/tutord/tutord/internal/tutor"
)

// passage is what the engine can say about one concept: the sentences of
// the explanations of its steps (and, from a wider source, of its
// questions' hints and solutions), with their terms, and the terms of its
// name and step titles.
type passage struct {
	concept string // "" for the guideline's own text
	single  bool   // answers with one sentence at most: its sentences are separate points
	title   map[string]bool
	body    map[string]bool
	sents   []string
	terms   [][]string // the terms of each sentence
}

func newPassage(concept string) passage {
	return passage{concept: concept, title: map[string]bool{}, body: map[string]bool{}}
}

// source is what a doubt may be answered from, beyond the lesson's
// explanations.
type source int

const (
	// lessonOnly is the explanations of the plan's steps and the
	// guideline's common misconceptions, each introduced as a mistake (a
	// learner's doubt is often the misconception itself: "do plants make
	// food at night?").
	lessonOnly source = iota
	// withHints adds the question bank's hints, filed under their
	// questions' concepts. Hints never give an answer away, so a lesson
	// with questions still to come may quote them.
	withHints
	// withSolutions adds the bank's worked solutions too: for a doubts
	// session, which asks no questions of its own.
	withSolutions
)

// passages returns one passage per plan concept that has something to say,
// in plan order. The guideline's teaching approach is written for
// teachers, not learners, so it is a passage only when no step has content
// of its own (a plan without the default plan's steps, which teach from
// it). The guideline's common misconceptions come last, in a passage of
// their own. Sources past lessonOnly add the texts src names.
func passages(t *tutor.Topic, src source) []passage {
	var out []passage
	taught := false
	for _, c := range t.Concepts() {
		p := newPassage(c)
		for _, st := range t.Steps {
			if st.Concept != c {
				continue
			}
			for _, w := range terms(st.Concept + " " + st.Title) {
				p.title[w] = true
			}
			for _, para := range paragraphs(st.Content) {
				for _, s := range sentences(para) {
					p.addNew(s)
				}
			}
		}
		taught = taught || len(p.sents) > 0
		if src >= withHints {
			for _, q := range t.Questions {
				if !sameConcept(q, c) {
					continue
				}
				for _, h := range q.Hints {
					for _, s := range sentences(strings.TrimSpace(h)) {
						p.addNew(s)
					}
				}
				if src >= withSolutions {
					for _, s := range sentences(oneLine(q.Solution)) {
						p.addNew(s)
					}
				}
			}
		}
		if len(p.sents) > 0 {
			out = append(out, p)
		}
	}
	if !taught {
		g := newPassage("")
		for _, para := range paragraphs(t.Guideline.TeachingApproach) {
			for _, s := range sentences(para) {
				g.add(s)
			}
		}
		if len(g.sents) > 0 {
			out = append(out, g)
		}
	}
	m := newPassage("")
	m.single = true
	for _, c := range t.Guideline.CommonMisconceptions {
		if c = strings.TrimSpace(c); c != "" {
			// "Adding the denominators as well as the numerators." is a
			// mistake to avoid, not a rule to follow: say so.
			m.addNew("A common mistake: " + lowerFirst(strings.TrimRight(c, ".")) + ".")
		}
	}
	if len(m.sents) > 0 {
		out = append(out, m)
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

// addNew adds s unless the passage has it already.
func (p *passage) addNew(s string) {
	if !slices.Contains(p.sents, s) {
		p.add(s)
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
// exceed for the engine to answer from it. At or below it the question is
// about something the lesson does not explain ("how do I add fractions" in
// a lesson on photosynthesis shares only "add", which the lesson uses once
// and so weighs as much as "fractions", which it never uses), and the
// honest reply is to say so rather than quote an unrelated sentence.
const minCoverage = 0.5

// frameWords are the words that frame a question rather than say what it
// is about: "what does X mean", "how do I find X", "what happens to X".
// A lesson rarely uses them, so as terms they would weigh most and sink the
// share of the question a passage covers.
var frameWords = wordSet(`mean means meant meaning find finds finding found work works working worked happen
	happens happened happening use uses used using define defined definition call called calls say says said
	show shows showed give gives given talk learn learnt study help example examples exactly actually basically
	simple simply word words`)

// keyTerms returns the terms that name what a lesson teaches: those of its
// topic's name, its concepts and step titles, and its learning objectives
// (without their opening verb: "State", "Describe").
func keyTerms(t *tutor.Topic) map[string]bool {
	key := map[string]bool{}
	texts := []string{t.TopicName}
	for _, st := range t.Steps {
		texts = append(texts, st.Concept, st.Title)
	}
	for _, o := range t.Guideline.LearningObjectives {
		if _, rest, ok := strings.Cut(strings.TrimSpace(o), " "); ok {
			texts = append(texts, rest)
		}
	}
	for _, s := range texts {
		for _, w := range terms(s) {
			key[w] = true
		}
	}
	return key
}

// score returns the passage's relevance to a question's terms, each
// shared term counting its weight, twice when it is in the concept's name
// or step titles; and the share of the question's weight the passage
// covers. A term the topic never uses counts against the share (as
// unknown) unless skipUnknown is set. Weighted word overlap is crude, but it
// is deterministic, cheap and easy to reason about, and the passages are
// short and on one topic.
func (p *passage) score(q []string, idf map[string]float64, unknown float64, skipUnknown bool) (float64, float64) {
	var score, covered, total float64
	for _, w := range q {
		wt, ok := idf[w]
		if !ok {
			if skipUnknown {
				continue
			}
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
// in their original order, keeping only sentences that keep accepts (nil
// keeps all). It answers from the lesson's explanations when they cover
// the question, else from the wider source src. It returns the passage's
// concept and false when no passage covers more of the question than
// minCoverage. Ties go to the earlier passage and sentence.
//
// A question that names something the lesson teaches (a key term, see
// keyTerms) is not held back by words the lesson never uses: in "what is a
// denominator in maths?" the lesson's silence on "maths" says nothing.
// Without a key term those words count in full, so that a question that
// shares only an incidental word with the lesson ("add" in "how do I add
// fractions" asked of a lesson on photosynthesis) is not answered.
func explain(t *tutor.Topic, src source, question string, n int, keep func(string) bool) (string, []string, bool) {
	q := contentTerms(question)
	if len(q) == 0 || t == nil {
		return "", nil, false
	}
	key := keyTerms(t)
	named := slices.ContainsFunc(q, func(w string) bool { return key[w] })
	tiers := []source{lessonOnly}
	if src > lessonOnly {
		tiers = append(tiers, src)
	}
	for _, s := range tiers {
		if concept, sents, ok := explainFrom(passages(t, s), q, named, n, keep); ok {
			return concept, sents, true
		}
	}
	return "", nil, false
}

// explainFrom is explain on one set of passages.
func explainFrom(ps []passage, q []string, named bool, n int, keep func(string) bool) (string, []string, bool) {
	idf, unknown := weights(ps)
	best, top := -1, 0.0
	for i := range ps {
		if s, c := ps[i].score(q, idf, unknown, named); s > top && c > minCoverage {
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
	if p.single {
		n = 1
	}
	ranked = ranked[:min(n, len(ranked))]
	if len(ranked) > 0 && ranked[0].w > 0 {
		ranked = slices.DeleteFunc(ranked, func(r scored) bool { return r.w == 0 })
	}
	slices.SortFunc(ranked, func(a, b scored) int { return a.i - b.i })
	var idx []int
	for k, r := range ranked {
		// An answer that would open with a sentence leaning on the one
		// before it ("This is called sublimation.") opens with that one.
		if prev := r.i - 1; k == 0 && prev >= 0 && leansBack(p.sents[r.i]) && (keep == nil || keep(p.sents[prev])) {
			idx = append(idx, prev)
		}
		idx = append(idx, r.i)
	}
	var out []string
	for _, i := range idx {
		out = append(out, p.sents[i])
	}
	return p.concept, out, len(out) > 0
}

// leansBack reports whether a sentence opens with a word that points back
// to the sentence before it: "This", "It", "They"...
func leansBack(sent string) bool {
	w := words(sent)
	if len(w) == 0 {
		return false
	}
	switch w[0] {
	case "this", "these", "that", "those", "it", "its", "they", "them", "their", "such":
		return true
	}
	return false
}
