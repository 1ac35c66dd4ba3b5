// Package tutor is the tutoring domain: the session state, the lesson it
// runs on, the tutor's structured output, and the pure rules that turn one
// into the next. Every other package speaks its vocabulary.
//
// It does no I/O, reads no clock (times are passed in) and draws no random
// numbers. Apart from its answer subpackage it imports nothing of the
// project.
//
// # State and lesson
//
// A State is the reference service's stored session document without
// full_conversation_log: the same snake_case keys, all present, nulls
// explicit, plus schema_version and tutord's additions (question ids and
// answer kinds, hints, misconception counts, started_at, last_answer_result,
// the pinned engine_config, weighted exam scores). Timestamps are naive UTC
// ISO-8601 (Time). DecodeState reads every schema version, including the
// reference's own documents (version 0), and upgrades them.
//
// The state does not hold the study plan. It refers to an immutable lesson
// version (TopicRef); the functions that need the plan take the Topic beside
// the state. What can be derived is not stored: completion, progress,
// coverage, the current concept, overall mastery, the number of steps.
//
// # A turn
//
// The turn pipeline calls, in order: Prechecker.Check on the message;
// Guard on the tutor's move (with the evaluator's verdict); ApplyTurn with
// the final reply. ApplyTurn returns a new State and Events and never
// modifies its input. Its rules follow the reference service (CONTRACT §9)
// with these choices where the references left room or had bugs:
//
//   - Correctness: the evaluator's verdict, when it settles the answer,
//     replaces the tutor's answer_correct. A partial answer counts as not
//     correct for the question lifecycle (it stays pending and climbs the
//     ladder), as half evidence for mastery, and as partial in an exam.
//     "I don't know", off-topic and stop messages are never answers in
//     teach_me; in an exam "I don't know" is an answer that earns nothing
//     and an off-topic message leaves the question standing.
//   - Question lifecycle: the reference's five cases, phases asked → probe
//     → hint → explain, a strategy change from the 4th wrong attempt. The
//     probe and hint are hint levels 1 and 2, so no level-2 hint comes before
//     level 1 and no explanation before two hints. A bank question keeps its
//     text and answer through the tutor's follow-ups; a bank question with
//     another id always starts a new lifecycle. "I don't know" is counted but
//     does not climb the ladder. The reply must explain by the 5th wrong
//     attempt at the latest (Guarded.MustExplain); the answer may appear only
//     once the learner has given it or in the explain phase, and never in
//     reply to "I don't know" (Guarded.MayRevealAnswer, AnswerMayBeRevealed).
//     A tutor that moves the step on without asking anything leaves the
//     pending question behind: it is dropped (QuestionCleared), so the next
//     message is not graded against it; so does one that sets it aside
//     (TutorOutput.SetAside: a learner declined it) without asking another.
//   - Mastery (teach_me only): every plan concept starts at 0.0. A judged
//     answer moves its concept by Bayesian Knowledge Tracing (the plan's
//     parameters or DefaultBKT; a concept still at 0 starts from the prior),
//     averaged with the tutor's update for that concept (TutorWeight), but
//     never against its evidence: a wrong answer never raises a concept
//     (one still at 0 stays there) nor leaves it above tracing's value, and
//     a right one never lowers it. Other
//     tutor updates are smoothed (EMAAlpha 0.4). Scores are clamped to
//     [0, 1]. Concept names are matched to the plan's spelling, and names
//     outside the plan are dropped: a model cannot grow the concept set.
//   - Misconceptions are counted by description (ignoring case and spacing),
//     once per turn however often a turn repeats one; two or more is
//     recurring; at most 10 are kept, dropping the least recently seen. A
//     wrong bank answer the tutor names nothing for records the bank
//     question's misconception only when it is one of the wrong answers
//     that misconception leads to (BankQuestion.ShowsMisconception), once
//     per question however often it is repeated.
//   - "I don't know" neither counts as an attempt nor climbs the ladder,
//     but it is answered with the next hint: hints_used counts hints given
//     by wrong answers and "I don't know" alike, up to 2 (Question.NextHint).
//   - Steps: advance_to_step only moves forward and at most to
//     total_steps+1 (the reference could hang past it); every step passed
//     adds its concept to the covered set. session_complete is honoured only
//     on the final step (after the advance) and also covers the final step's
//     concept (the reference left it out). The covered set only ever holds
//     plan concepts, in every mode.
//   - After completion a teach_me session keeps tutoring until
//     turn_count − 2 × total_steps > 10, then gets post-completion replies
//     (PostCompletion); a completed doubts session always does. A finished
//     exam answers with the fixed "already complete" text, followed by the
//     review of each question the message names ("why was Q2 wrong?").
//   - Completion by mode: teach_me past the last step, clarify_doubts on
//     clarify_complete, exam on exam_finished (the reference's WebSocket
//     never showed exams complete). Exam progress over REST is clamped to
//     N of N; the WebSocket's shows N+1 of N once the exam is over, as the
//     reference's did.
//   - Exams: Score counts correct answers only, as clients expect;
//     WeightedScore and weighted_percentage also give half a point per
//     partial answer. Feedback lists concepts in question order (the
//     reference used set order).
//   - Stop requests (and a sitting's time limit, off unless configured):
//     teach_me pauses, clarify_doubts completes, an exam ends early with its
//     results. A sitting starts at its first turn (started_at) and again
//     after a resume. Empty and overlong messages change nothing.
//   - Pre-checks match phrases on word boundaries and never fire on a
//     message holding a digit, which makes it an answer attempt. Bare words
//     such as "stop" or "done" stop only as the whole message, and not when
//     the evaluator judges that message the pending question's right answer
//     ("stop" for what a driver does at a red light; Precheck.Judged).
//   - The state stays bounded: 10 history messages, 30 timeline entries,
//     5 previous answers per question, 20 safety flags, 10 misconceptions,
//     50 concepts discussed. A turn writes about the same bytes at turn 500
//     as at turn 5. The summary lists each misconception once (the reference
//     repeated them).
//   - An unsafe message's reply is kept in the history window (the
//     reference dropped it), so the tutor sees that it redirected.
//   - TutorOutput.Validate rejects what a retry can fix (an unknown intent
//     or signal, scores outside [0, 1]); an overlong turn_summary is cut to
//     80 characters instead.
//
// # Signals
//
// Pacing and Style compute the reference's dynamic prompt signals, with
// their exact labels, thresholds and texts, without allocating.
package tutor
