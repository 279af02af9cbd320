"""The decline rules, by category: (category, rule name, pattern), the first match deciding (see
:func:`core.answer.safety.check`). Patterns combine the word classes of :mod:`core.answer.safety_words`.
"""

from __future__ import annotations

import re

from core.answer.safety_words import (
    AUTHORITY,
    BOT,
    CONTROL,
    DATA,
    DOC,
    EDIT,
    EVADE,
    EVIDENCE,
    FALSE_CUE,
    FALSIFY,
    FETCH,
    FRAME,
    NOTICE,
    OTHER,
    PAYOFF,
    PERSON,
    PRODUCE,
    REVISE,
    THRESHOLD,
    TRICK,
)

RULES: tuple[tuple[str, str, re.Pattern[str]], ...] = tuple(
    (category, name, re.compile(pattern, re.I)) for category, name, pattern in (
        ("fabricate", "falsify-document",
         rf"\b{FALSIFY}\b(?:\W+\w+){{0,6}}?\W+(?:{DOC}|claims?|forms?)\b"
         rf"|\b{DOC}\b(?:\W+\w+){{0,4}}?\W+(?:be\s+)?{FALSIFY}\b"),
        ("fabricate", "fake-document",
         rf"\b(?:fake|forged|bogus|phony|phoney|false|fraudulent|counterfeit|"
         rf"backdated|made-up)\s+(?:\w+\s+)?{DOC}\b"),
        ("fabricate", "document-for-nonevent",
         rf"\b{DOC}\b.{{0,60}}?\b(?:that|which)\s+(?:never|didn'?t|"
         rf"did\s+not|wasn'?t|was\s+not)\s+(?:actually\s+)?(?:happen|"
         rf"happened|take\s+place|took\s+place|exist|existed)\b"),
        ("fabricate", "edit-to-mislead",
         rf"\b{EDIT}\b(?:\W+\w+){{0,8}}?\W+{DOC}\b.{{0,80}}?(?:{TRICK}|{PAYOFF})"),
        ("fabricate", "write-evidence-for-me",
         rf"{BOT}{PRODUCE}\s+(?:me\s+|us\s+)?(?:(?:a|an|the|one|another|new|fresh|replacement|duplicate|some|"
         rf"this|that|my)\s+)?(?:(?!(?:of|for|about|on|to|with|from)\b)[\w'-]+\s+){{0,2}}?{EVIDENCE}\b"
         rf"|^(?=.*\b{EVIDENCE}\b).*{BOT}{PRODUCE}\s+(?:me\s+|us\s+)?(?:a\s+)?(?:new|fresh|replacement|"
         rf"another|duplicate|similar)\s+one\b"),
        ("fabricate", "edit-evidence-for-me",
         rf"^(?=.*\b{EVIDENCE}\b).*?{BOT}(?:{REVISE}\s+(?:it|them|this|that|(?:the|my|this|that|our)\s+"
         rf"(?:[\w'-]+\s+){{0,2}}?(?:{EVIDENCE}|dates?|amounts?|totals?|years?|figures?|names?))|fill\s+(?:it|them|"
         rf"this|that)\s+(?:in|out|up))\b"),
        ("fabricate", "doc-made-to-look",
         rf"\bmake\s+(?:the|my|this|that|our)\s+(?:[\w'-]+\s+)?{EVIDENCE}\s+(?:look|sound|seem|appear|"
         rf"read)\s+(?:like|as\s+(?:if|though))"),
        ("fabricate", "would-altered-doc-pass",
         rf"{NOTICE}\b.{{0,40}}?\bif\b(?:.{{0,60}}?\b(?:{DOC})\b.{{0,30}}?\b(?:said|says|showed|shows|read|"
         rf"reads|had|stated|states|listed|lists)\b|\s+(?:i|we)\s+(?:just\s+)?(?:chang|edit|alter|amend|modif|"
         rf"tweak|adjust|swap|replac|backdat|fak|forg|doctor)\w*\b.{{0,40}}?\b{DOC}\b)"),
        ("fabricate", "someone-elses-signature",
         rf"\b(?:copy|copied|paste|trace|scan|reuse|stick|forge|fake)\w*\s+(?:(?:his|her|their)|(?:my|the|our)"
         rf"\s+(?:\w+\s+)?{PERSON}'?s?|(?-i:[A-Z][a-z]+)'s)\s+(?:e-?)?(?:signatures?|initials|stamps?|seal)"
         rf"|\b(?:put|sign|add|use|draw|do)\w*\s+(?:(?:his|her|their)|(?:my|the|our)\s+(?:\w+\s+)?{PERSON}'?s?)"
         rf"\s+(?:e-?)?(?:signatures?|initials|stamps?|seal)\b.{{0,60}}?\b(?:myself|for\s+(?:him|her|them)|"
         rf"on\s+(?:his|her|their)\s+behalf|without\s+(?:him|her|them))\b"),
        ("fabricate", "want-doc-to-say",
         rf"^(?=.*\b{EVIDENCE}\b).*\b(?:need|want|would\s+like|get|have)\s+(?:it|them|this|that|the\s+\w+|"
         rf"my\s+\w+)\s+(?:to\s+)?(?:show|say|read|state|list)(?:ing|s)?\s+(?:\w+\s+){{0,2}}?(?:\d|"
         rf"(?:an?\s+)?(?:later|earlier|different|higher|bigger|another))"
         rf"|^(?=.*\b{EVIDENCE}\b).*\bmake\s+(?:it|them|this|that)\s+(?:look|seem|appear)\s+(?:like|as\s+"
         rf"(?:if|though)|real|genuine|original|official|legit)"),
        ("deceive", "fraud-goal",
         r"\b(?:commit|get\s+away\s+with|pull\s+off|help\s+(?:me|us)\s+with)\W+(?:\w+\W+){0,3}?(?:fraud|a\s+scam"
         r"|insurance\s+scam)\b"),
        ("deceive", "lie-to",
         r"\b(?:lie|lying|lied)\s+(?:to|on|about|in)\b|\b(?:mislead|deceiv\w*|trick|fool|"
         r"con|cheat|scam|defraud|hoodwink|dupe)\w*\s+(?:the\s+|my\s+|our\s+)?(?:insur\w*|"
         r"company|employer|hr|finance|manager|boss|auditors?|claims?\s+team|them|it|"
         r"underwriters?|assessors?|adjusters?)\b"),
        ("deceive", "hide-fact",
         r"\b(?:hide|hiding|conceal\w*|cover\w*\s+up|hush\w*\s+up|(?:leav\w*|left)\s+(?:\w+\s+){0,2}?(?:out|off)\b|"
         r"omit\w*|not\s+(?:mention|declare|disclose|tell|report)\w*|"
         r"without\s+(?:mentioning|declaring|disclosing|telling|reporting)|keep\w*\s+"
         r"(?:\w+\s+){0,3}(?:quiet|secret|hidden|off)|avoid\s+(?:declaring|disclosing|"
         r"mentioning|telling))\b.{0,80}?\b(?:insur\w*|underwrit\w*|proposal|form|"
         r"application|company|employer|hr|finance|manager|boss|them|claim|plan|policy|enrol\w*|"
         r"declaration|questionnaire|renewal)\b"),
        ("deceive", "not-find-out",
         r"\b(?:so|that)\s+(?:the\s+|my\s+|our\s+)?(?:insur\w*|company|employer|hr|"
         r"finance|manager|boss|auditors?|they|nobody|no\s+one)\s+(?:doesn'?t|don'?t|"
         r"won'?t|will\s+not|does\s+not|do\s+not|never|can'?t|cannot)?\s*"
         r"(?:find\w*\s+out|notic\w*|realis\w*|realiz\w*|knows?|catch\w*|"
         r"spot\w*|suspect\w*)\b(?<!\bknow)"),
        ("deceive", "so-they-dont-figure-out",
         r"\bso\s+(?:that\s+)?(?:he|she|they|nobody|no\s+one|(?:my|the|our)\s+\w+)\s+(?:doesn'?t|don'?t|won'?t|"
         r"will\s+not|does\s+not|do\s+not|never|can'?t|cannot|wouldn'?t)\s+(?:find\s+out|figure\s+out|"
         r"work\s+out|notice|realis\w*|realiz\w*|know|catch\s+on|suspect|see|learn|hear)\b"),
        ("deceive", "word-it-so",
         rf"\b(?:word|phrase|describe|frame|present|spin|write|put|fill\s+(?:in|out)|"
         rf"answer|explain|report|tell|say|claim)\w*\b.{{0,80}}?{TRICK}"),
        ("deceive", "pretend",
         r"\b(?:pretend\w*|make\s+(?:it\s+)?(?:look|seem|appear)|act\s+as\s+if|"
         r"say|tell\s+(?:them|the\s+\w+|hr|my\s+\w+)|claim|report)\b.{0,60}?"
         r"\b(?:stolen|sick|ill|injured|an\s+accident|robbed|broken|lost|damaged|"
         r"business|work(?:-related)?|a\s+client)\b.{0,40}?\b(?:when|but|although|"
         r"though|even\s+though)\s+(?:\w+\s+){0,3}(?:actually|really|wasn'?t|isn'?t|"
         r"didn'?t|was\s+not|did\s+not|never|just)\b"),
        ("deceive", "fake-event",
         r"\b(?:fake|faking|feign\w*|stage|staging|invent\w*)\s+(?:a\s+|an\s+|my\s+|"
         r"the\s+)?(?:\w+\s+)?(?:illness|injury|accident|theft|burglary|sick\s+day|"
         r"sickness|break-?in|robbery|loss|claim|emergency|death|hospitali[sz]ation|"
         r"appointment|excuse|alibi|doctor'?s\s+visit|funeral|family\s+emergency)\b"
         r"|\b(?:call\w*\s+in|go\s+off)\s+sick\b.{0,40}\b(?:not|n't|actually|really)\b"),
        ("deceive", "report-as",
         r"\b(?:report|claim|say|list|record|describe|file|put)\w*\s+(?:it|this|that|them|"
         r"the\s+\w+|my\s+\w+)\s+(?:down\s+)?as\s+(?:a\s+|an\s+)?(?:stolen|theft|lost|"
         r"damaged|accident\w*|work|business|storm|break-?in|burglary)\b"
         r"(?=.{0,80}\b(?:but|although|though|actually|really|in\s+fact|wasn'?t|"
         r"didn'?t|not)\b)|\b(?:but|although|though|actually|really|in\s+fact)\b.{0,80}"
         r"\b(?:report|claim|say|list|record|describe|file)\w*\s+(?:it|this|that|them)\s+"
         r"as\s+(?:a\s+|an\s+)?(?:stolen|theft|lost|damaged|accident\w*|work|business)\b"),
        ("deceive", "mislabel",
         r"\bby\s+(?:saying|claiming|pretending|calling|listing|label+ing|marking|coding|"
         r"booking|putting|describing|filing)\s+(?:it|them|this|that|she|he|they|him|her|"
         r"the\s+\w+)\b"),
        ("deceive", "misstate-when",
         r"\b(?:tell|say|claim|report|write|state)\w*\b.{0,60}\b(?:only\s+)?(?:just\s+)?"
         r"(?:happened|started|began|occurred|discovered|found|noticed)\b.{0,60}\b"
         r"(?:although|though|even\s+though|actually|really|in\s+fact)\b"),
        ("deceive", "personal-as-business",
         r"\b(?:personal|private|family|holiday|vacation|friend'?s?|weekend|leisure|"
         r"wife'?s?|husband'?s?|partner'?s?|spouse'?s?|wedding|honeymoon|birthday|party|concert|"
         r"festival|anniversary|sightseeing|shopping)\b.{0,60}"
         r"\bas\s+(?:a\s+|an\s+)?(?:business|work|client|company)\b"),
        ("deceive", "make-them-believe",
         rf"\b(?:make|get|lead|have)\s+(?:the\s+|my\s+|our\s+)?(?:\w+\s+)?(?:{AUTHORITY}|them|him|her|"
         rf"everyone)\s+(?:to\s+)?(?:think|believe|assume|buy\s+(?:it|that|the\s+story))\b"
         rf"|\b(?:convinc|persuad)\w*\s+(?:the\s+|my\s+|our\s+)?(?:\w+\s+)?(?:{AUTHORITY}|them)\b.{{0,100}}?"
         rf"{FALSE_CUE}"),
        ("deceive", "make-it-sound",
         r"\bmake\s+(?:it|this|that|them|the\s+\w+|my\s+\w+|our\s+\w+)(?:\s+\w+)?\s+(?:look|sound|seem|appear|"
         r"read)\s+(?:like|as\s+(?:if|though))"),
        ("deceive", "tell-them-untrue",
         rf"\b(?:tell|explain|say|write|draft|compose|send|e-?mail|inform|assure|answer|reply|respond|message|text)\w*\b.{{0,80}}?"
         rf"\b{AUTHORITY}\b.{{0,120}}?{FALSE_CUE}"),
        ("deceive", "cover-story",
         r"\b(?:come\s+up\s+with|think\s+(?:of|up)|cook\s+up|make\s+up|invent|craft|concoct)\s+(?:me\s+)?"
         r"(?:a\s+|an\s+|some\s+)?(?:good\s+|believable\s+|plausible\s+|convincing\s+|credible\s+|solid\s+)?"
         r"(?:cover\s+)?(?:story|excuse|alibi|lie|fib|explanation|reason)s?\b.{0,40}?(?:\bwhy\b|\bfor\s+why\b|"
         r"\bto\s+(?:tell|give|explain|use|cover)\b|\bso\s+(?:that\s+)?(?:they|he|she|hr|the\s+\w+|my\s+\w+)\b)"),
        ("deceive", "would-claim-pass",
         rf"{NOTICE}\b.{{0,40}}?\bif\s+(?:i|we)\s+(?:just\s+)?(?:said|say|claimed|claim|told|tell|reported|"
         rf"report|put|listed|list|called|call|wrote|write|left|leave|didn'?t\s+(?:mention|declare|disclose|"
         rf"tell|report))\b"),
        ("deceive", "answer-to-get-paid",
         r"\b(?:answer|reply|respond|word|phrase)\w*\b.{0,60}?\bso\s+(?:that\s+)?(?:they|the\s+\w+|it|he|she)\s+"
         r"(?:will\s+|would\s+|still\s+)?(?:pay|accept|approve|cover)s?\b"),
        ("deceive", "want-them-to-believe",
         rf"\b(?:need|want|get)\s+(?:the\s+|my\s+|our\s+)?(?:\w+\s+)?(?:{AUTHORITY}|them|him|her)\s+to\s+"
         rf"(?:think|believe|assume)(?!\s+(?:about|of|over)\b)"),
        ("deceive", "say-untrue",
         r"\b(?:say|said|claim|claimed|state|declare|tell|told|put|write|report|list)\w*\b.{0,80}?(?:\(\s*"
         r"(?:it|he|she|they|i|we)\s+(?:isn'?t|isnt|wasn'?t|wasnt|aren'?t|weren'?t|doesn'?t|doesnt|didn'?t|"
         r"didnt|is\s+not|was\s+not|does\s+not|did\s+not)\b|\b(?:it'?s|that'?s)\s+(?:not\s+true|a\s+lie|"
         r"untrue))"),
        ("others_data", "other-persons-data",
         rf"\b{FETCH}\b.{{0,60}}?{OTHER}.{{0,40}}?\b{DATA}\b"
         rf"|\b{FETCH}\b.{{0,60}}?\b{DATA}\b.{{0,40}}?{OTHER}"),
        ("others_data", "colleague-health",
         r"\b(?:which|who)\s+(?:of\s+|in\s+)?(?:my|our|the)\s+(?:\w+\s+)?"
         r"(?:colleagues|co-?workers|teammates|team|employees|staff|people|managers|interns|leads)\s+"
         r"(?:are|is|has|have|had|were|was|got)\b.{0,40}\b(?:sick|stress|burn-?out|maternity|medical|"
         r"health|disciplinary|pregnan\w*|disabilit\w*|therapy|rehab|"
         r"warnings?|performance\s+(?:improvement\s+)?plan|performance\s+improvement|pip|fired|terminated|"
         r"laid\s+off)"),
        ("others_data", "colleague-status",
         rf"\b(?:is|are|was|were|has|have)\s+(?:my|our|the|a)\s+(?:\w+\s+){{0,2}}?"
         rf"{PERSON}s?(?:\s+(?-i:[A-Z][a-z]+))?\s+(?:pregnant|sick|ill|"
         rf"on\s+(?:sick|medical|maternity|stress)\s+leave|in\s+rehab|in\s+"
         rf"therapy|being\s+fired|getting\s+fired|on\s+a\s+pip|under\s+"
         rf"investigation|disabled|depressed|diagnosed|seeing\s+a\s+therapist)"),
        ("others_data", "what-pay",
         rf"\bwhat\s+(?:salary|pay|bonus|compensation|raise)\s+(?:does|do|did|will)\s+"
         rf"(?:my|our|the)\s+(?:\w+\s+)?{PERSON}s?\s+(?:get|earn|make|receive)"),
        ("others_data", "where-lives",
         r"\bwhere\s+(?:does|do|did)\s+(?:my|our|the|this|that)\s+(?:\w+\s+)?"
         r"(?:colleague|co-?worker|teammate|manager|boss|ex|friend|employee|"
         r"intern|supervisor|neighbou?r)s?\s+(?:live|stay|reside)"
         rf"|\bwhere\s+(?:the|my|our|a)\s+(?:\w+\s+)?{PERSON}s?\s+(?:lives|stays|"
         rf"resides)\b"),
        ("others_data", "who-earns",
         r"\bhow\s+much\s+(?:does\s+|is\s+|do\s+)?(?:my\s+|our\s+|the\s+)?(?:\w+\s+)?"
         r"(?:colleague|co-?worker|teammate|manager|boss|cfo|ceo|(?-i:[A-Z][a-z]+))s?\s+"
         r"(?:earns?|makes?|gets?\s+paid|is\s+paid|paid)\b|\b(?-i:[A-Z][a-z]+)'s\s+"
         r"(?:personal\s+|private\s+|home\s+)?(?:salary|pay|address|phone|mobile|"
         r"number|diagnosis|medical|health|disciplinary|performance\s+review)"),
        ("others_data", "does-person-have-condition",
         rf"\b(?:does|did|has)\s+(?:(?-i:[A-Z][a-z]+)(?:\s+(?:in|from|on)\s+\w+)?|(?:my|our|the|a|this|that)"
         rf"\s+(?:\w+\s+)?{PERSON})\s+(?:have|has|had|got|suffer\w*\s+from)\s+(?:a\s+|an\s+|any\s+)?"
         rf"(?:\w+\s+)?(?:(?:medical|health|mental\s+health|heart|chronic|psychiatric)\s+(?:conditions?|"
         rf"issues?|problems?)|illness\w*|diseases?|disorders?|disabilit\w*|diagnos[ie]s|criminal\s+record|"
         rf"warnings?|complaints?)\b"),
        ("others_data", "who-got-paid-what",
         r"\b(?:which|who)\b(?:\s+[\w']+){0,5}?\s+(?:got|received|earned|was\s+paid|were\s+paid|made|was\s+given|"
         r"were\s+given)\s+(?:the\s+)?(?:biggest\s+|highest\s+|largest\s+|most\s+|lowest\s+|smallest\s+|best\s+|"
         r"top\s+|a\s+|any\s+)?(?:bonus(?:es)?|salar(?:y|ies)|pay\s*rises?|raises?|increments?|hikes?|"
         r"(?:written\s+)?warnings?|pips?)\b|\bwho\b(?:\s+[\w']+){0,5}?\s+(?:earns?|makes?|gets?\s+paid)\s+the\s+"
         r"(?:most|least)\b"),
        ("others_data", "why-person-treated",
         rf"\b(?:what|why)\s+(?:was|is|were|has|have|did)\s+(?:she|he|they|(?:my|our|the|a|this|that)\s+"
         rf"(?:\w+\s+)?{PERSON}|(?-i:[A-Z][a-z]+))\s+(?:been\s+)?(?:treated|diagnosed|admitted|hospitali[sz]ed|"
         rf"operated|fired|sacked|dismissed|disciplined|warned|investigated|suspended|written\s+up|let\s+go|"
         rf"demoted)"
         rf"(?:\s+(?:for|with|on)\b|\s*\?)"),
        ("others_data", "who-was-disciplined",
         rf"\b(?:who\s+(?:\w+\s+){{0,3}}?|which\s+(?:\w+\s+)?{PERSON}s?\s+)(?:has|have|had)\s+been\s+(?:put\s+on|"
         rf"placed\s+on|fired|sacked|disciplined|warned|investigated|suspended|diagnosed|hospitali[sz]ed|"
         rf"signed\s+off\s+sick|written\s+up)"),
        ("others_data", "why-person-let-go",
         rf"\bwhy\s+(?:she|he|they|(?:my|our|the|a|this|that)\s+(?:\w+\s+)?{PERSON}|(?-i:[A-Z][a-z]+)"
         rf"(?:\s+(?:from|in|on)\s+\w+)?)\s+(?:was|were|got|has\s+been|had\s+been|is\s+being)\s+(?:let\s+go|"
         rf"fired|sacked|dismissed|disciplined|warned|investigated|suspended|hospitali[sz]ed|demoted|put\s+on)"
         r"|\b(?:which|who)\s+(?:\w+\s+){0,3}?(?:is|are|was|were)\s+(?:currently\s+|now\s+|still\s+)?on\s+"
         r"(?:[\w-]+\s+)?(?:sick|medical|maternity|paternity|stress|disability|mental\s+health)\s+leave\b"),
        ("bypass_control", "evade-control",
         rf"\b{EVADE}\b(?:\W+\w+){{0,5}}?\W+{CONTROL}\b"),
        ("bypass_control", "split-to-stay-under",
         r"\b(?:split\w*|break\w*\s+up|break\w*\s+(?:\w+\s+){0,3}?"
         r"in(?:to)?|divid\w*|spread\w*)\b.{0,60}?"
         r"\b(?:so|to)\b.{0,40}?\b(?:under|below|within|avoid|"
         r"doesn'?t\s+need|don'?t\s+need|without|nobody|no\s+one)\b"
         r".{0,30}?"
         r"\b(?:limits?|approv\w*|threshold|cap|sign-?off|review)"),
        ("bypass_control", "borrowed-credentials",
         r"\b(?:use|using|log\s*in\s+(?:with|as)|borrow|with|via|through|from)\w*\s+"
         r"(?:my\s+|a\s+|the\s+)?(?:\w+\s+)?(?:manager|boss|"
         r"colleague|co-?worker|teammate|someone\s+else|admin)'?s?\s+"
         r"(?:login|password|account|credentials|card|badge|token|"
         r"approval|access)"),
        ("bypass_control", "impersonate",
         rf"\b(?:log\s*(?:in|on)|sign\s+in|pose|act)\s+as\s+(?:my\s+|the\s+|a\s+)?"
         rf"(?:\w+\s+)?(?:{PERSON}|admin|administrator|someone\s+else)\b"),
        ("bypass_control", "unauthorised-access",
         r"\b(?:access|get\s+into|open|see|read)\b.{0,60}\b(?:not|n't)"
         r"\s+(?:authori[sz]ed|allowed|supposed|permitted|cleared)"),
        ("bypass_control", "make-believe-approval",
         r"" + FRAME + r".{0,60}?(?:\band\b|\bthen\b|[,.;:!]|\bnow\b)\s*(?:please\s+|just\s+|go\s+ahead\s+"
         r"(?:and\s+)?)?(?:approve|sign\s+off|authori[sz]e|grant|okay|ok|green-?light|rubber-?stamp|"
         r"write\s+(?:me\s+)?(?:the|an|a|my)\s+(?:\w+\s+)?(?:approval|authori[sz]ation|go-?ahead|exception)|"
         r"give\s+(?:me\s+)?(?:the\s+|an?\s+|your\s+)?(?:approval|authori[sz]ation|go-?ahead|ok|sign-?off|"
         r"exception))\b"),
        ("bypass_control", "self-approval",
         r"\b(?:just|simply|quietly|secretly)\s+(?:approve|sign\s+off|authori[sz]e|okay|ok)\s+(?:\w+\s+){0,3}?"
         r"(?:my\s+own|myself)\b|\b(?:approve|sign\s+off|authori[sz]e)\s+(?:my\s+own\s+)?(?:\w+\s+){0,3}?"
         r"myself\b"),
        ("bypass_control", "way-around-it",
         rf"\b{CONTROL}\b.{{0,60}}?\b(?:way|trick|workaround|hack|loophole)s?\s+(?:a?round|past|to\s+(?:get\s+)?"
         rf"(?:a?round|past|avoid|beat|skip))\s+(?:it|that|this|them)\b"),
        ("bypass_control", "hide-activity-from-monitoring",
         r"\b(?:stop|prevent|keep|block|hide|avoid)\w*\s+(?:\w+\s+){0,3}?(?:from\s+)?(?:seeing|tracking|"
         r"monitoring|logging|recording|knowing|watching|checking)\s+(?:what|which|where|when|my|the)\s+"
         r"(?:\w+\s+){0,2}?(?:sites?|websites?|browsing|activity|traffic|screen|keystrokes|usage|downloads?|"
         r"location|apps?|history|searches|i\s+(?:do|visit|browse|download|search|open))\b"),
        ("bypass_control", "split-under-threshold",
         rf"^(?=.*\b(?:two|2|three|3|four|several|multiple|separate|smaller|individual)\s+(?:[\w'-]+\s+)?"
         rf"(?:invoices|bills|receipts|claims|cards|orders|pos|purchase\s+orders|payments|tickets|transactions|"
         rf"reports|requests|bookings|purchases)\b)(?=.*(?:{THRESHOLD}))"
         rf"|\bso\s+(?:that\s+)?(?:each|it|they|both|every|neither|none|nobody|no\s+one)\b.{{0,40}}?\b(?:stays?|"
         rf"is|are|falls?|remains?|comes?\s+in|keeps?|goes)\s+(?:below|under|within|beneath)\b"),
        ("bypass_control", "skip-the-check",
         r"\bwithout\s+(?:it\s+|them\s+|this\s+)?(?:going\s+(?:to|through|past)|being\s+(?:approved|reviewed|"
         r"checked|seen|flagged|audited)|(?:my\s+\w+|anyone|them|finance|hr)\s+(?:approving|reviewing|"
         r"checking|seeing)|(?:the\s+|proper\s+|any\s+)?(?:admin|administrator|root|elevated)\s+(?:rights|"
         r"access|permissions?|privileges))\b"
         r"|\bso\s+(?:that\s+)?(?:it|the\s+\w+|each|they)\s+(?:doesn'?t|does\s+not|won'?t|don'?t|never)\s+"
         r"(?:hit|reach|exceed|go\s+over|cross|trigger)\s+(?:the\s+|an?\s+)?(?:\w+\s+)?(?:limit|threshold|cap|"
         r"approval|review|audit)"),
        ("bypass_control", "without-telling-it",
         r"\bwithout\s+(?:telling|asking|informing|notifying|involving|alerting)\s+(?:it|security|anyone|"
         r"anybody|them|the\s+\w+(?:\s+team)?)\b"),
        ("off_topic", "write-content",
         r"^\W*(?:hey\W+|hi\W+|please\s+|ok\W+)?(?:(?:can|could|would|will)\s+(?:you|u)"
         r"\s+)?(?:please\s+)?(?:write|compose|generate|draft|create|make|give|"
         r"tell|code|produce|come\s+up\s+with|help\s+me\s+(?:write|with))\s+"
         r"(?:me\s+|us\s+)?(?:a\s+|an\s+|some\s+|another\s+|one\s+)?(?:[\w'-]+\s+){0,3}?"
         r"(?:poem|essay|story|song|joke|haiku|limerick|rap|riddle|novel|"
         r"screenplay|code|script|program|function|class|query|regex|"
         r"sql|python|javascript|java|bash|html|css|app|website|homework|"
         r"assignment|tweet|speech|toast|recipe|fan\s*fiction|cover\s+letter|resume|cv|post|blog|caption|"
         r"slogan|tagline|bio)s?\b"),
        ("off_topic", "chit-chat",
         r"\btell\s+me\s+(?:a\s+|another\s+|some\s+)?(?:joke|riddle|fun\s+fact|"
         r"story)s?\b|\b(?:debug|fix|refactor|review|optimi[sz]e)\s+(?:my|this|the)\s+"
         r"(?:code|script|function|program|query|sql|regex|python)\b|\bwhat'?s\s+the\s+"
         r"(?:weather|score|capital\s+of|meaning\s+of\s+life)\b|\bwho\s+won\s+the\b|\bwho(?:'s|\s+is|\s+will)\s+(?:going\s+to\s+|gonna\s+)?win\b"
         r"|\b(?:solve|calculate)\s+(?:this|my)\s+(?:equation|math|homework|integral)\b"
         r"|\btranslate\s+(?:this|the\s+following|my|our|a)\s+(?:\w+\s+)?(?:song|poem|text|paragraph|speech|essay|"
         r"story|lyrics|toast|"
         r"message)\b"),
        ("off_topic", "leisure-ideas",
         r"\b(?:give\s+me|come\s+up\s+with|suggest|brainstorm|list|need)\s+(?:\w+\s+){0,2}?(?:ideas?|names?|"
         r"suggestions?)\s+for\s+(?:a\s+|an\s+|the\s+|our\s+|my\s+)?(?:\w+\s+){0,2}?(?:name|party|gift|quiz|"
         r"game|costume|theme|slogan|pet|baby|band)s?\b"),
        ("off_topic", "entertain-me",
         r"\bi'?m\s+bored\b|\bim\s+bored\b|\bentertain\s+me\b|\bmake\s+me\s+laugh\b|\btell\s+me\s+(?:something|"
         r"anything)\s+(?:funny|fun|interesting|random|cool)\b|\b(?:summari[sz]e|recap|explain)\s+(?:the\s+)?"
         r"(?:plot|storyline|ending)\s+of\b|\bwhat(?:'?s|\s+is)\s+\d+(?:\s*/\s*\d+)?\s*(?:plus|minus|times|"
         r"divided\s+by|multiplied\s+by|[-+*x])\s*\d"),
        ("off_topic", "plans-and-picks",
         r"\b(?:plan|create|make|build|suggest|design)\s+(?:me\s+)?(?:a\s+|an\s+|my\s+)?(?:[\w-]+\s+){0,2}?"
         r"(?:itinerary|workout|diet|meal\s+plan|playlist)\b|\b(?:good|best|fun)\s+(?:movie|film|book|show|"
         r"series|song|restaurant|game)s?\s+(?:to\s+(?:watch|read|play|listen)|for\s+(?:tonight|the\s+weekend))"
         r"|\brecommend\s+(?:me\s+)?(?:a\s+|some\s+)?(?:movie|film|book|show|series|song|restaurant|game)s?\b"),
    ))
"""(category, rule name, pattern); the first match decides (see :func:`check`)."""
