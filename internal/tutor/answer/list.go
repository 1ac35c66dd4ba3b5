package answer

import "strings"

// splitItems splits an expected list or set into its elements at commas,
// semicolons and "and". Square brackets or parentheses around the whole
// mean the order matters; braces or no brackets mean it does not.
func splitItems(s string) (items []string, ordered, ok bool) {
	s = strings.TrimSpace(s)
	if len(s) >= 2 {
		switch s[0] {
		case '[', '(':
			if s[len(s)-1] == ']' || s[len(s)-1] == ')' {
				s, ordered = s[1:len(s)-1], true
			}
		case '{':
			if s[len(s)-1] == '}' {
				s = s[1 : len(s)-1]
			}
		}
	}
	toks := lex(s)
	from := -1
	flush := func(k int) {
		if from >= 0 {
			items = append(items, s[toks[from].start:toks[k-1].end])
		}
		from = -1
	}
	for k, t := range toks {
		if t.kind == tSym && (t.text == "," || t.text == ";") || t.kind == tWord && t.text == "and" {
			if from < 0 {
				return nil, false, false // an empty element: "1,,2"
			}
			flush(k)
			continue
		}
		if from < 0 {
			from = k
		}
	}
	flush(len(toks))
	return items, ordered, len(items) > 1
}

// element is one expected element of a list or set.
type element struct {
	isNum bool
	n     number
	words []normWord
}

func evalList(exp Expected, kind Kind, reply string, toks []token, res *Result) {
	items, _, _ := splitItems(exp.Answer)
	if len(items) == 0 {
		res.Verdict, res.Reason = CannotCheck, "the expected answer has no elements"
		return
	}
	elems := make([]element, len(items))
	allNum := true
	for i, it := range items {
		et := lex(it)
		if len(et) == 1 && et[0].kind == tNum {
			elems[i] = element{isNum: true, n: et[0].num}
		} else {
			elems[i] = element{words: normalize(et)}
			allNum = false
		}
	}
	var nums []int // indices of the reply's candidate numbers, in order
	for i, t := range toks {
		if t.kind == tNum && !excluded(toks, i) {
			nums = append(nums, i)
		}
	}
	got := normalize(toks)
	used := make([]bool, len(nums))
	pos := make([]int, 0, len(elems)) // byte position of each matched element, in expected order
	first, last := len(reply), 0
	for _, e := range elems {
		p := -1
		if e.isNum {
			for k, ti := range nums {
				if !used[k] && numbersMatch(e.n, toks[ti].num, exp.Tolerance) {
					used[k] = true
					p = toks[ti].start
					first, last = min(first, toks[ti].start), max(last, toks[ti].end)
					break
				}
			}
		} else if k := findWords(got, e.words, 0); k >= 0 {
			p = got[k].start
			first, last = min(first, got[k].start), max(last, got[k+len(e.words)-1].end)
		}
		if p >= 0 {
			pos = append(pos, p)
		}
	}
	extra := 0
	if allNum {
		for k, u := range used {
			if !u {
				extra++
				first, last = min(first, toks[nums[k]].start), max(last, toks[nums[k]].end)
			}
		}
	}
	if first < last {
		res.Extracted = reply[first:last]
	}
	switch m := len(pos); {
	case m == 0 && (declines(reply, toks) || allNum && len(nums) == 0):
		res.Verdict, res.Reason = NotAttempt, "no elements in the reply"
	case m == 0:
		res.Verdict = Incorrect
	case m == len(elems) && extra == 0:
		res.Verdict = Correct
		if kind == KindList && !increasing(pos) {
			res.Verdict, res.Reason = Partial, "right elements, wrong order"
		}
	case m == len(elems):
		res.Verdict, res.Reason = Partial, "all elements and some extra ones"
	default:
		res.Verdict, res.Reason = Partial, "some elements missing"
	}
}

func increasing(p []int) bool {
	for i := 1; i < len(p); i++ {
		if p[i] <= p[i-1] {
			return false
		}
	}
	return true
}
