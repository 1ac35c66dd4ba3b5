package answer

import (
	"math"
	"strings"
)

// unit is a unit of measure as read after (or, for currency, before) a
// number. Units in the table have a dimension and a factor to the
// dimension's base, so that 120 mm and 12 cm compare equal; any other noun
// ("apples") is kept by name and only compared by name.
type unit struct {
	name   string  // canonical name: "cm", "kg", "$", or a singular noun
	dim    string  // "length", "mass", ...; "" for a plain noun
	factor float64 // multiplier to the dimension's base unit
}

func (u unit) known() bool { return u.dim != "" }

// unitTable maps spellings to units. It is deliberately small: school
// mathematics needs lengths, masses, volumes, times, money, angles and
// temperatures.
var unitTable = func() map[string]unit {
	m := map[string]unit{}
	add := func(dim string, factor float64, name string, spellings ...string) {
		d := unit{name: name, dim: dim, factor: factor}
		m[name] = d
		for _, s := range spellings {
			m[s] = d
		}
	}
	add("length", 0.001, "mm", "millimetre", "millimeter")
	add("length", 0.01, "cm", "centimetre", "centimeter")
	add("length", 1, "m", "metre", "meter", "mtr")
	add("length", 1000, "km", "kilometre", "kilometer")
	add("length", 0.0254, "inch", "inche", "inches")
	add("length", 0.3048, "ft", "foot", "feet")
	add("length", 0.9144, "yd", "yard")
	add("length", 1609.344, "mi", "mile")
	add("mass", 0.001, "mg", "milligram", "milligramme")
	add("mass", 1, "g", "gram", "gramme", "gm")
	add("mass", 1000, "kg", "kilogram", "kilogramme", "kilo")
	add("mass", 1e6, "t", "tonne", "ton")
	add("mass", 453.59237, "lb", "pound", "lbs")
	add("mass", 28.349523125, "oz", "ounce")
	add("volume", 0.001, "ml", "millilitre", "milliliter")
	add("volume", 1, "l", "litre", "liter", "ltr")
	add("volume", 3.785411784, "gal", "gallon")
	add("time", 1, "s", "sec", "second", "secs")
	add("time", 60, "min", "minute", "mins")
	add("time", 3600, "h", "hour", "hr", "hrs")
	add("time", 86400, "day")
	add("time", 604800, "week", "wk")
	add("money", 1, "$", "dollar", "usd", "buck")
	add("money", 0.01, "¢", "cent")
	add("money_gbp", 1, "£", "gbp", "quid")
	add("money_gbp", 0.01, "p", "pence", "penny")
	add("money_eur", 1, "€", "euro", "eur")
	add("money_inr", 1, "₹", "rupee", "rs", "inr")
	add("money_inr", 0.01, "paise", "paisa")
	add("money_jpy", 1, "¥", "yen")
	add("angle", 1, "°", "degree", "deg")
	add("area", 1e-4, "cm^2")
	add("area", 1, "m^2")
	add("area", 1e6, "km^2")
	add("area", 1e-6, "mm^2")
	add("area", 0.09290304, "ft^2")
	add("area", 0.00064516, "in^2")
	add("volume", 0.001, "cm^3", "cc")
	add("volume", 1000, "m^3")
	add("speed", 1, "m/s", "mps")
	add("speed", 1000.0/3600, "km/h", "kmph", "kph")
	add("speed", 1609.344/3600, "mph")
	add("temperature_c", 1, "°c", "celsius", "centigrade")
	add("temperature_f", 1, "°f", "fahrenheit")
	return m
}()

// lookupUnit finds a spelling in the table, trying singular forms of a plural.
func lookupUnit(w string) (unit, bool) {
	if d, ok := unitTable[w]; ok {
		return d, true
	}
	for _, suf := range []string{"s", "es"} {
		if len(w) > len(suf)+1 && strings.HasSuffix(w, suf) {
			if d, ok := unitTable[w[:len(w)-len(suf)]]; ok {
				return d, true
			}
		}
	}
	return unit{}, false
}

// scaleAt reads a temperature scale after a degree: "C", "F", "celsius",
// "centigrade", "fahrenheit".
func scaleAt(toks []token, k int) (unit, bool) {
	if k >= len(toks) || toks[k].kind != tWord {
		return unit{}, false
	}
	switch w := toks[k].text; w {
	case "c", "f":
		return unitTable["°"+w], true
	case "celsius", "centigrade", "fahrenheit":
		return unitTable[w], true
	}
	return unit{}, false
}

// notUnits are words that commonly follow a number without naming what it
// counts: "42 because ...", "6 I think".
var notUnits = map[string]bool{
	"because": true, "and": true, "or": true, "is": true, "i": true, "it": true, "its": true, "it's": true, "so": true,
	"isnt": true, "doesnt": true, "dont": true,
	"but": true, "since": true, "as": true, "the": true, "a": true, "an": true, "of": true,
	"in": true, "to": true, "for": true, "then": true, "right": true, "correct": true,
	"maybe": true, "yes": true, "no": true, "please": true, "now": true, "total": true,
	"each": true, "per": true, "more": true, "less": true, "left": true, "times": true,
	"was": true, "are": true, "were": true, "not": true, "at": true, "on": true, "by": true,
	"with": true, "from": true, "that": true, "this": true, "which": true, "if": true,
	"exactly": true, "altogether": true, "overall": true, "all": true, "you": true, "we": true,
	"am": true, "be": true, "x": true, "plus": true, "minus": true, "over": true, "out": true,
	"than": true, "will": true, "would": true, "should": true, "can": true, "could": true,
	"has": true, "have": true, "had": true, "do": true, "did": true, "does": true, "after": true,
	"before": true, "when": true, "what": true, "how": true, "ok": true, "okay": true,
	"thanks": true, "thank": true, "sir": true, "miss": true, "maam": true, "too": true, "also": true,
	"divided": true, "multiplied": true, "instead": true, "rather": true, "apiece": true,
	"only": true, "just": true, "about": true, "ish": true, "hmm": true,
}

// unitAt reads the unit of the number at toks[i]: a currency symbol before
// it, or the unit words after it ("cm", "square metres", "km/h", "cm²",
// "apples"). It returns the unit, the index after it, and whether there was one.
func unitAt(toks []token, i int) (unit, int, bool) {
	n := toks[i].num
	if n.cur != "" {
		d := unitTable[n.cur]
		return d, i + 1, true
	}
	if n.pct {
		return unit{}, i + 1, false
	}
	j := i + 1
	if j >= len(toks) {
		return unit{}, j, false
	}
	power := ""
	if toks[j].kind == tWord && (toks[j].text == "sq" || toks[j].text == "square" || toks[j].text == "cubic") {
		if toks[j].text == "cubic" {
			power = "^3"
		} else {
			power = "^2"
		}
		j++
	}
	if j >= len(toks) {
		return unit{}, i + 1, false
	}
	// Degrees: "30°", "30 °C", "30° F".
	if toks[j].kind == tSym && toks[j].text == "°" {
		if d, ok := scaleAt(toks, j+1); ok {
			return d, j + 2, true
		}
		return unit{name: "°", dim: "angle", factor: 1}, j + 1, true
	}
	if toks[j].kind != tWord {
		return unit{}, i + 1, false
	}
	w := toks[j].text
	end := j + 1
	// Powers written after the unit: cm², cm^2, m3.
	if power == "" && end < len(toks) {
		switch {
		case toks[end].text == "²":
			power, end = "^2", end+1
		case toks[end].text == "³":
			power, end = "^3", end+1
		case toks[end].text == "^" && end+1 < len(toks) && toks[end+1].kind == tNum &&
			(toks[end+1].num.val == 2 || toks[end+1].num.val == 3):
			power = "^" + toks[end+1].text
			end += 2
		}
	}
	d, ok := lookupUnit(w)
	if ok && power != "" {
		d, ok = unitTable[d.name+power]
	}
	if ok && d.name == "°" {
		// "100 degrees F", "100 degrees celsius".
		if t, tok := scaleAt(toks, end); tok {
			return t, end + 1, true
		}
	}
	if ok {
		// Speeds: km/h, metres per second.
		if end+1 < len(toks) && (toks[end].text == "/" || toks[end].text == "per") && power == "" {
			if d2, ok2 := lookupUnit(toks[end+1].text); ok2 && d2.dim == "time" {
				if sp, ok3 := unitTable[d.name+"/"+d2.name]; ok3 {
					return sp, end + 2, true
				}
				if d.dim == "length" {
					return unit{name: d.name + "/" + d2.name, dim: "speed", factor: d.factor / d2.factor}, end + 2, true
				}
			}
		}
		return d, end, true
	}
	// Rates of counted things: "8 pencils per box", "3 per child". A rate
	// is another quantity than a count, so it carries a dimension of its
	// own.
	if power == "" && (w == "per" || j+2 < len(toks) && !notUnits[w] && len(w) >= 2 && toks[j+1].text == "per") {
		k := j + 2
		name := singular(w) + " per "
		if w == "per" {
			k, name = j+1, "per "
		}
		if k < len(toks) && toks[k].kind == tWord && !notUnits[toks[k].text] {
			return unit{name: name + singular(toks[k].text), dim: "rate", factor: 1}, k + 1, true
		}
	}
	if notUnits[w] || fractionTail[w] || len(w) < 2 || power != "" {
		return unit{}, i + 1, false
	}
	return unit{name: singular(w)}, j + 1, true
}

// quantityAt reads the quantity at toks[i]: its number and unit as unitAt
// reads them, or a compound quantity: up to three parts of one dimension
// in decreasing units, optionally joined by "and" ("2 hours 30 minutes",
// "1 m 25 cm", "2 h and 30 min"), read as one number in its last unit
// (150 min). Mixed dimensions ("2 kg 30 cm"), increasing units ("30 min 2
// h"), rates and negative or fractional leading parts are not summed. It
// returns the number, the unit, the index after it, and whether there was
// a unit.
func quantityAt(toks []token, i int) (number, unit, int, bool) {
	n := toks[i].num
	u, end, ok := unitAt(toks, i)
	if !ok || !u.known() || u.dim == "rate" || u.dim == "speed" {
		return n, u, end, ok
	}
	total, last, prev, parts := n.val*u.factor, u, n, 1
	for parts < 3 && partOfCompound(prev) {
		k := end
		if k < len(toks) && toks[k].kind == tWord && toks[k].text == "and" {
			k++
		}
		if k >= len(toks) || toks[k].kind != tNum {
			break
		}
		m := toks[k].num
		if m.cur != "" || m.pct || m.outOf || m.scale != 0 || m.val < 0 {
			break
		}
		v, j, vok := unitAt(toks, k)
		if !vok || v.dim != last.dim || v.factor >= last.factor {
			break
		}
		total += m.val * v.factor
		last, end, prev, parts = v, j, m, parts+1
	}
	if parts == 1 {
		return n, u, end, ok
	}
	val := total / last.factor
	if r := math.Round(val); closeEnough(r, val, 0) && math.Abs(r) < 1<<53 {
		return number{val: r, num: int64(r), den: 1, form: fInt}, last, end, true
	}
	return number{val: val, form: fDec}, last, end, true
}

// partOfCompound reports whether n may lead a part of a compound
// quantity: a whole number, not negative, without a sign of its own ("2"
// of "2 h 30 min").
func partOfCompound(n number) bool {
	return n.form == fInt && n.val >= 0 && !n.pct && !n.outOf && n.scale == 0
}

// singular strips a plural ending so that "apple" and "apples" match.
func singular(w string) string {
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes") || strings.HasSuffix(w, "xes") || strings.HasSuffix(w, "sses"):
		return w[:len(w)-2]
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && len(w) > 2:
		return w[:len(w)-1]
	}
	return w
}
