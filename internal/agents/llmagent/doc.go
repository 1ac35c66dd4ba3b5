// Package llmagent implements the agents of package agents with language
// models: the master tutor (teach_me and clarify_doubts), the safety gate,
// the exam generator and evaluator, the welcomes and the reply after a
// session has ended. Each agent renders its prompts from embedded
// text/template files (prompts/*.tmpl, one per prompt, readable on their
// own) with typed data, and asks for a strict structured output through
// llm.Structured, which validates it and repairs it once. Short messages
// are a one-field object too, so that every agent returns clean values or
// an error, never a half-filled output.
//
// Every call is recorded in an agents.Call: the full prompt, the output as
// JSON, the model's private reasoning, the time, requests, tokens and
// estimated cost. Errors are the client's *llm.Error, whose Kind tells the
// caller what happened; a prompt that cannot be built (no lesson, a mode
// the agent does not serve) is an *llm.Error of kind KindInvalidRequest.
//
// # Prompts
//
// The master tutor's system prompt holds the student profile and
// personalization block, the study plan, the topic's guidelines and the
// teaching rules. It is rendered from the mode, the lesson and the
// learner's context alone, never from the turn, so it is byte-identical on
// every turn of a session and the providers' prompt caches can serve it.
// Everything that changes goes into the turn prompt: the current step,
// mastery, misconceptions, the timeline, the pacing and style signals, the
// pending question with its attempt number and the strategy of the hint
// ladder, the answer evaluator's verdict as a fact not to contradict, the
// guardrails' directives, a correction, the recent conversation and the
// learner's message.
//
// The pending question's answer and worked solution appear in a prompt
// only when the reply may reveal them (tutor.Guard for the evaluator's
// verdict, never more than the turn's own directives allow, never after a
// correction); before that the prompt holds only the hints of the rungs
// the reply may reach, and the sentences of the step's content, the
// lesson's questions and the model's own notes (misconceptions, turn
// summaries) that state the answer are left out. The learner's language
// preference and level are in every prompt: a model answers in the
// learner's language.
package llmagent
