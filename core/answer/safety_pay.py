"""Another person's pay (``others_data``): word classes and rules, however the pay is put.

What someone else earns is asked with many verbs and nouns ("what does my colleague earn", "how much is
the new guy on", "which pay grade is my manager on", "Sarah's package", "did Tom get a bigger bonus than
me"). A rule here needs three things: a *pay* word (:data:`PAY`: a noun, or an earning verb of
:data:`EARN`), a *specific other person* (:data:`WHO`: a name, "my/our <colleague>", "the new <hire>",
"the <guy> who…", "someone on my team", he/she) and a *question* about the amount (wh-word, "how
much", a comparison or a time span after the verb). The asker's own pay ("how much do I earn…",
"when do we get paid") has no other person; the policy's pay rules name people generically ("do
managers earn overtime", "how much do interns get paid", "a new hire") and are not declined.
Hand-written from the word classes (not learned, not taken from evaluation questions); the rules sit
before the deception rules (:data:`core.answer.safety_rules.RULES`) because an appearance word in a
pay question ("what her package looks like") is no deception.
"""

from __future__ import annotations

import re

NAME = (r"(?!(?:mon|tues|wednes|thurs|fri|satur|sun)day|january|february|march|april|may|june|july|august|"
        r"september|october|november|december|christmas|diwali|easter|today|tomorrow|yesterday|this|next|"
        r"last|what|how|does|did|is|was|who|which|when|where|why|can|could|hr\b)"
        r"(?-i:[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)")
"""A capitalised name (one or two words); a name is another person."""
ROLE = (r"(?:colleague|co-?worker|teammate|team\s+mate|desk-?\s*mate|buddy|team\s+member|manager|boss|"
        r"supervisor|team\s+lead|lead|director|head|peer|direct\s+report|intern|contractor|friend|hire|"
        r"joiner|starter|recruit|employee|assistant|analyst|engineer|developer|guy|girl|lady|woman|man|"
        r"dude|bloke|fellow|chap|person|cfo|ceo|cto|coo|founder|president|vp|predecessor|successor|"
        r"replacement|counterpart)s?\b")
"""Nouns for a person at work (with a possessive or specific determiner: a specific other person)."""
UNIQUE = r"(?:cfo|ceo|cto|coo|founder|president|chairman|chairwoman|md|managing\s+director|boss)"
"""Roles only one person holds: "the CEO" is a specific person."""
_VERB_S = r"(?:earns|makes|gets|takes|brings|pulls|rakes|has|does|is|was)"
WHO = (rf"(?:(?:my|our|his|her|this|that)\s+(?:[\w-]+\s+){{0,2}}?{ROLE}(?:\s+{NAME})?"
       rf"|(?:a|one)\s+(?:colleague|co-?worker|teammate|friend)\s+of\s+mine"
       rf"|the\s+(?:new|other)\s+{ROLE}(?:\s+{NAME})?|the\s+{UNIQUE}|the\s+{ROLE}\s+{NAME}"
       rf"|the\s+(?:head|director|vp|chief|manager|lead)\s+of\s+(?:the\s+)?\w+"
       rf"|the\s+(?:guy|girl|lady|woman|man|dude|bloke|fellow|chap)\s+(?:in|from|at)\s+(?:the\s+)?\w+"
       rf"|the\s+{ROLE}\s+(?:who|that|next\s+to|beside|sitting|across)\b"
       rf"(?:\s+(?!(?:i|we|you)\b)[\w']+){{0,6}}?"
       rf"|(?:someone|somebody|anyone|anybody)\s+(?:on|in|from)\s+(?:my|our)\s+(?:\w+\s+)?(?:team|"
       rf"department|office|group|unit|squad)|\b(?:he|she)\b"
       rf"|{NAME}(?!\s+(?!{_VERB_S}\b)\w+s\b)(?:\s+(?:in|from|on)\s+(?:the\s+)?\w+)?)")
"""A specific other person: a name (not one qualifying a plural noun: "Acme employees"), "my/our
<role>", "a colleague of mine", "the new <role>", "the CEO", "the head of sales", "the <role> who
sits…", "someone on my team", he/she. Generic classes ("managers", "a manager", "the employee") are
not: they are how a policy states its pay rules."""
PAY = (r"(?:salar(?:y|ies)|pay(?:\s*(?:grade|band|scale|rise|raise|packet|check|cheque|slip|rate|level))?|"
       r"paycheck|wages?|compensation|package|bonus(?:es)?|raises?|increments?|hikes?|commissions?|"
       r"earnings|income|take-?\s?home|stipend|band|grade|pay\s+bracket|salary\s+band|hourly\s+rate|"
       r"day\s+rate|equity|stock\s+options|ctc|remuneration|overtime\s+pay)")
"""Pay nouns: what someone is paid, its grade or a rise."""
EARN = (r"(?:earn(?:s|ed|ing)?|(?:mak(?:e|es|ing)|made)(?!\s+(?:me|us|him|her|them|it|of|sure|up|the|a|an|"
        r"this|that|any|decisions?)\b)|tak(?:e|es|ing)\s+home|took\s+home|bring(?:s|ing)?\s+home|"
        r"brought\s+home|(?:get|gets|getting|got|being|is|was|are|were)?\s*paid|pull(?:s|ing|ed)?\s+in|"
        r"rak(?:e|es|ing|ed)\s+in|on(?=\s*(?:[?.!,]|$)))")
"""Verbs of earning (the payee as subject), "on" as in "how much is she on"."""
AMOUNT_ASK = (r"(?:\bhow\s+much\b|\bwhats\b|\bhow\s+big\b|\bhow\s+large\b|\bwhat\b|\bwhich\b|\broughly\b|"
              r"\bkind\s+of\s+money\b|\bmore\s+than\b|\bless\s+than\b|\bbigger\b|\bhigher\b|\blarger\b|"
              r"\blower\b|\bsmaller\b|\bbetter\b|\bas\s+much\b|\bper\s+(?:year|month|week|hour|annum)\b|"
              r"\ba\s+(?:year|month|week|day|hour)\b|\b(?:annually|monthly|yearly|hourly)\b|"
              r"\b(?:after|before)\s+tax\b|\b(?:five|six|seven)[- ]figures?\b|[$€£₹]\s*\d|\b\d+\s*k\b|"
              r"\b\d[\d,.]*\s*(?:lakhs?|lacs?|crores?|dollars|euros|pounds|rupees|usd|eur|inr|gbp)\b|\blast\s+(?:year|month|quarter)\b|\bthis\s+(?:year|month)\b)")
"""Asking for an amount, a comparison or a rate: a question about the figure itself."""
_VERB_AFTER = rf"(?:\s+(?!(?:i|we|you)\b)[\w']+){{0,3}}?\s+{EARN}\b"

PAY_RULES: tuple[tuple[str, str, re.Pattern[str]], ...] = tuple(
    ("others_data", name, re.compile(pattern, re.I)) for name, pattern in (
        ("others-pay-earns",
         rf"^(?=.*{AMOUNT_ASK})(?=.*(?:\b(?:does|did|do|will|would|is|was|are|were|has|whats)|'s)\s+{WHO}(?:{_VERB_AFTER}|"
         rf"\s+(?:get|got|receive[sd]?)\s+(?:[\w-]+\s+){{0,2}}?{PAY}\b))"),
        ("others-pay-possessive",
         rf"^(?=.*(?:{AMOUNT_ASK}|\b(?:tell|show|share|find\s+out|give|send|look\s+up|know|pull|dig\s+up)\b))"
         rf".*?(?:\b(?:my|our|the|this|that)\s+(?:[\w-]+\s+){{0,2}}?{ROLE}'s|\b{NAME}'s|\bthe\s+{UNIQUE}'s)"
         rf"\s+(?:[\w-]+\s+){{0,2}}?{PAY}\b"),
        ("others-pay-of",
         rf"(?<!\bper\s)(?<!\beach\s)(?<!\bevery\s)\b(?!pay\s)(?:{PAY})\s+(?:of|for)\s+{WHO}"),
        ("others-pay-grade",
         rf"\b(?:what|which|how\s+much)\s+(?:\w+\s+)?(?:{PAY})\s+(?:(?:is|are|was|does|did|do|has|will)\s+{WHO}"
         rf"(?:\s+(?!(?:i|we|you)\b)[\w']+){{0,3}}?\s+(?:on|in|at|get|got|have|receive|earn|make)"
         rf"|{WHO}\s+(?:is|was)\s+(?:on|in|at))\b"),
        ("others-pay-indirect",
         rf"^(?=.*{AMOUNT_ASK}).*\b(?:what|how\s+much|whether|if)\s+{WHO}{_VERB_AFTER}"),
        ("others-pay-offered",
         rf"\b(?:what|how\s+much)\s+(?:\w+\s+){{0,3}}?(?:do|does|did|will|would|are|is)\s+(?:they|you|we|hr|"
         rf"the\s+company|the\s+firm|payroll)\s+(?:pay|paying|give|giving|offer|offering|offered|gave|"
         rf"award|awarded)\s+{WHO}"),
        ("others-pay-got",
         rf"\b{WHO}\s+(?:just\s+)?(?:got|gets|received|was\s+given|is\s+getting)\s+(?:a|an|his|her|their)\s+"
         rf"(?:\w+\s+)?{PAY}\b.{{0,40}}?\b(?:how\s+much|how\s+big|what\s+(?:was|is)\s+it|what\s+amount|"
         rf"how\s+large)"),
    ))
"""(category, rule name, pattern) for another person's pay, in match order."""
