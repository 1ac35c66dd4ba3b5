// Package rules is tutord's built-in tutoring engine: a deterministic,
// classic intelligent tutoring system that implements every agent of
// package agents without a model, a network or a key. It is the default
// when no model provider is configured, so tutord works out of the box,
// and it makes tests and the evaluation harness reproducible. New returns
// one agent per component; Provider names the engine in configurations
// and agent logs (no model, no prompt, no tokens).
//
// # Determinism and voice
//
// Every reply is a function of its input. Variety comes from a hash of the
// session id and the kind of sentence, shifted by the turn number: the same
// move on consecutive turns is phrased differently, two sessions differ,
// and a rerun of a session is identical word for word. The learner's first
// name is used on about one turn in three. The phrasings live in
// phrases.go. Replies are short (one to three sentences of the engine's own
// besides curriculum text such as a question or a worked solution), plain
// text for screen and speech, and in English whatever the learner's
// language preference: the engine has no translator. They never talk about
// the learner in the third person, name fields or verdicts, or use generic
// labels ("Great job!", "Wrong"): praise names the answer and the idea
// behind it, and a miss gets the next rung of the hint ladder.
//
// # teach_me
//
// The engine teaches the study plan in order. An explain step teaches the
// step's content a part per turn (up to three sentences of a paragraph),
// then moves to the next step. A check step asks one bank question on its
// concept, a practice step question_count of them. The question is chosen
// among those not yet asked in the session, easiest first, varied between
// sessions by a hash of the session id and the step. The engine keeps its
// own account of what it asked and explained in its turn summaries
// ("Step 2: asked like-1"), which the domain keeps in the session's
// timeline, and reads it back from there and from the history window.
//
// The answer evaluator's verdict is never questioned. A right answer gets
// specific praise (the answer and the idea behind it: the first sentence of
// its worked solution that explains in words, or its first hint; a learner
// who writes little or struggles hears the answer named and the next
// question, without the idea); one given
// after the worked solution was shown is acknowledged instead and counts as
// right with help (adequate, 0.5). Then the lesson moves on: the next
// practice question, the next step's question, the next explanation, or,
// after the final step, a wrap-up naming the concepts covered and the
// mistakes made (see below), with session_complete. A wrong answer walks the
// ladder: the question's first hint, its second (a hint given since the
// question was asked, as a clue, is skipped; with both given, a step of the
// worked solution short of the answer (never its last step, one move from
// the answer), for an answer that is a number or an expression and none of
// whose numbers the step gives, and with every step
// given too, the lesson's explanation of the question's idea again and a
// question about how far the learner got, once each, then the question
// again and then a simpler question on the same idea; a learner who has given right
// steps is helped on from the last of them, never taught them again; the
// clues given and the steps shown are recorded on the question, so none
// comes twice), the worked solution, then, once per step, a step
// back to another question on the same concept not asked yet, no harder
// when the bank has one, after saying that the answer is not it. A wrong
// answer that the question's known mistake leads to hears what it did, in
// the learner's words ("it looks like you added 9 to 23 instead of
// subtracting"), with its hint; the twelfth wrong answer
// leaves the question after its worked solution and the lesson moves on. The
// solution comes only when the guardrails allow the answer to be shown:
// Respond computes them for its own move with tutor.Guard, the call
// ApplyTurn makes, and never allows more than Turn.Guard. A partly right
// answer hears what is right and what is missing. A wrong answer that is a
// right intermediate step of the worked solution or hints ("100" for one
// part of ₹900 shared 4 : 5, when a share is asked; not a number the
// question gives, nor a known wrong answer, nor the answer without its
// sign; a known wrong answer's value counts when the message names it as
// the very sum the solution works, "15% of 800 is 120", and not as the
// answer) is named in the solution's words, once for each question, and the learner asked to
// go on, unjudged (answer_correct unset, RightStep set, so that the
// domain's guardrails count no wrong attempt). A learner who speaks badly of themselves or the subject ("I'm so
// stupid", "I hate maths") hears a kind word first. "I don't know" (and "I
// don't understand") gets encouragement and
// the next hint (one more per repeat, up to the last, counted in
// hints_used; after an answer with the wrong sign, none about the sizes
// the learner already has), never the worked solution or the answer, and never the hint
// the previous reply gave word for word: after the last hint, it is a step
// back to a simpler question on the same concept, or, with none, the
// question is left; the fourth "I don't know" leaves the question, without
// its answer, and the lesson moves on. An answer that hedges between two
// values ("3:5 or 5:3") is asked to pick one, in an exam too; off-topic chat
// is steered back to the question; a question from the learner is answered
// from the lesson and the question asked again (one with numbers in it too,
// "what is the hcf of 15 and 25", when it opens with a question word and
// does not check an answer, as "is it 16?" does), or, when the lesson does
// not explain it, the learner hears so. Between steps the same holds, and
// "can you explain again?" or "kinda" hears the last part again; a
// learner still lost after that hears what the school words of the part
// mean (glossary.txt, in the sense of the lesson's subject), or, with no
// new ones to explain, is asked what to go over; a bare "why?" hears the
// part's sentence that gives a reason, or the part again; a bare "no" or
// "not yet" to going on, or to a part heard again, asks what to go over, and a "no" that asks for nothing then goes on; "can I have another
// one?" asks another bank question on the concept just practised, after
// which the lesson goes on with the step it had reached; "i already know
// this, can we skip to the questions?", said on its own, asks the next
// check's question at once. A sum checked or asked between steps is worked as in a doubts
// session, unless it answers a bank question the learner has not met yet,
// and a doubt in reply to the welcome is answered before the lesson
// begins. A part of the lesson is not said again right after a doubt's
// answer quoted it. The engine detects no misconception in an answer itself: the domain records a bank question's misconception
// when the wrong answer is one that misconception leads to. The wrap-up, and
// the reply when a sitting runs out of time, name in the learner's words one
// that the session recorded, the one seen most often, with the rule that
// sets it right ("...; just watch out for adding the denominators too. The
// denominators are equal, so add the numerators and keep the denominator.");
// a question's mistake without such a rule is not named, and neither is one
// that means nothing without its question ("subtracting 5 from 65", "saying
// liquid"): named by its concept, it would tell the learner nothing to watch
// out for. When the session recorded no mistake that can be named, the
// wrap-up is the plain one. Any sentence that would still give away the
// pending question's answer, or the answer of the question being asked, is
// dropped before the reply leaves (answer.DetectLeaks). Answers the
// evaluator cannot check are judged by keyword overlap (see
// ExamEvaluator.Judge). After the lesson, while the session tutors turns
// for an answer and a second try, the engine offers the bank's hardest
// questions not yet asked, called harder only when they are; "what did we
// learn?" hears what the lesson covered and the mistake to watch out for,
// and a doubt is answered as between steps. "No thanks" to a question
// after the lesson lets it go (TutorOutput.SetAside), and "ok" to the
// goodbye asks nothing more.
//
// A wrong answer whose own working slips after a right start hears where:
// "your working is right as far as 14/4 - 5/4", "check 36 + 18 again", or
// the step where its equations change their solution ("from 4x = 36 to x
// = 8"); per cents, rounded decimals and running totals are no slips. A
// letter given to options the question names without letters earns
// nothing and is asked for in words. A learner who asks for the answer of
// a question the lesson left, or replaced with another, hears it worked
// through.
//
// # clarify_doubts
//
// A doubt is answered with at most two sentences of the lesson's
// explanations or one of the guideline's common misconceptions (introduced
// as a mistake): those of the concept whose name, step titles and content
// share the most with the question, then its sentences that share the
// most. A concept whose name the question says in full ("fraction times a
// fraction") wins over one whose name adds what the question does not say
// ("fraction times a whole number"), and of two that share as much, the
// one that leaves less of its name unsaid. A step in the middle of a
// worked example ("Subtract 2x from both sides: x - 6 = 2.") does not
// answer a question without numbers: the step's idea does ("Expand the
// brackets first"), with the example's next step when the answer ends by
// stating it. Only when they do not cover the doubt, the bank's hints and
// worked solutions are searched too (a lesson quotes hints only: solutions
// would answer its questions to come); in a doubts session a hint comes
// after the question it is a hint of ("Here is a problem of this kind:
// …"), never alone, so that a concept only a practice step teaches ("word
// problems") is answered with a problem of its kind. Words are compared
// without stop words and the words that frame a question ("what does X
// mean", "how do I find X", "in maths"), with plurals and verb endings
// stemmed and a learner's everyday words read as the lesson's ("bottom
// number" as "denominator", "%" as "percentage"), a stop word asked about
// as a word ("what does of mean?") kept, as the lesson's quoted "of" is,
// each weighted by how rare it is in the lesson (twice in a name or
// title), a word the lesson never uses weighing most. When no concept covers more than half of the question's
// weight, the sentences chosen do not, or the question names nothing the
// lesson is about (only the everyday words of its word problems' hints),
// the engine says that the lesson does not cover it and what it can help
// with, rather than quote something unrelated. A question that names
// nothing ("why?", "what do you mean?") asks about the last doubt: it
// hears more of the explanation that answered it, never what the history
// shows it heard, or that the lesson has no more. A doubt that states a
// sum hears it checked first ("Not quite: -3 + (-4) = -7, not 7."), one
// that asks for a sum hears it worked unless the lesson works it itself,
// and "is x = 4 the answer to 2x + 3 = 11?" hears 4 put in place of x;
// "0.25 as a percent", "the LCM of 4 and 6", "is -5 bigger than -2?",
// "so 50% means 50?", "share 20 in the ratio 2:3", "if 5 pens cost 40
// rupees, how much are 8?", "so 5x - 3x is 2?", "what is x if 4x = 20",
// "from 60 to 50 is a 20% decrease?", "2 m is 200 cm right?", "ratio of 1
// hour to 30 minutes", "20% discount on 500", "is -12 / 0 = 0?", "up 10%
// then down 10%, same price?", "is (-2) x (-3) x (-4) positive?", "so 3/4 x
// 2/5 is less than 3/4?", "0.5 = 5%?", "reciprocal of 2 1/3 is 3/7?" and
// "for 3/4 ÷ 1/8 I flip the first one" are worked too (see claims.go). A
// question, tagged claim ("…, isn't it", "… na") or objection ("…
// though") that puts forward one of the guideline's common
// misconceptions, in the learner's words ("so plants eat soil for food?",
// "a negative times a negative is negative isnt it", "gases dont weigh
// anything right?"), hears "No" and the misconception named first, then
// what sets it right, in a lesson too; the reason a misconception gives
// need not be said, but a claim with a condition of its own ("by more
// than one"), one taken back in the same message, and one a checked sum
// shows right are no misconception (see restate.go). An answer that would
// be a misconception alone gets the right idea first; one that says what a glossary word means hears its meaning,
// with "Not quite" for another state of matter. In a lesson, right working
// inside a reply to a question (an equation with the question's solution,
// a true sum the worked solution reaches) is a right step, not a miss. "What does
// product mean?" of a lesson that uses a word without saying what it is
// hears the definition of glossary.txt, a maintained list of school words,
// first (in a lesson too, and beside a pending question, which stands).
// One closure question follows. A short "no",
// "no more doubts" or "that's all" ends the session with a goodbye, which
// thanks back only a learner who thanked. The
// concept answered is reported in mastery_updates so that the domain
// records it as discussed, and so are the concepts a goodbye names in
// full ("thanks, that's all about mixed numbers"); a concept an earlier session discussed is
// introduced as such.
//
// A science claim ("water boils at 90 degrees right?", "condensation takes
// in heat right?") hears Yes or No first when a clause of the lesson
// states the same temperature or the same thing, or the thing with one
// word turned to its opposite, with every other term of the claim in that
// clause and in its order (see temperature.go and facts.go); a lesson
// holds back the verdict on a claim a question to come asks. "What is 2/3
// of 12?", a part of the one amount a word problem names and a number
// puzzle ("the sum of a number and 12 is 30") are worked step by step; a
// value put forward for an unknown that is wrong hears how the equation
// solves, in a doubts session. Hinglish words for the lessons' things
// ("raat", "paani", "neela") read as their English.
//
// # Exams, welcomes, safety
//
// ExamGenerator draws a 30/50/20 easy/medium/hard mix from the bank, spread
// over concepts and question types, easiest first. ExamEvaluator judges what
// the answer evaluator cannot check by keyword overlap with the expected
// answer. The tutor words no exam turn but one: a hedged answer is asked for
// one final answer, unjudged. Welcomer and PostCompletion write the first
// and the after-the-end messages. Safety classifies messages with the
// patterns of patterns.txt (self-harm, violence, sexual content, hate,
// personal data) and answers each category kindly; the self-harm reply
// points to trusted adults and to India's Tele-MANAS (14416), Childline
// (1098) and emergency (112) numbers. Attempts to talk the tutor into giving
// answers are not a safety matter: the tutor simply never gives them before
// their time.
package rules
