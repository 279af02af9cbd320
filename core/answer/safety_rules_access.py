"""The decline rules about access: other people's data (``others_data``), getting around a control
(``bypass_control``) and tasks unrelated to the policies (``off_topic``), as (category, rule name,
pattern) in match order; :data:`core.answer.safety_rules.RULES` puts them after the misconduct rules.
"""

from __future__ import annotations

import re

from core.answer.safety_pay import NAME
from core.answer.safety_words import (
    CONTROL,
    DATA,
    EVADE,
    FETCH,
    FRAME,
    OTHER,
    PERSON,
    THRESHOLD,
)

ACCESS_RULES: tuple[tuple[str, str, re.Pattern[str]], ...] = tuple(
    (category, name, re.compile(pattern, re.I)) for category, name, pattern in (
        ("others_data", "other-persons-data",
         rf"\b{FETCH}\b.{{0,60}}?{OTHER}.{{0,40}}?\b{DATA}\b"
         rf"|\b{FETCH}\b.{{0,60}}?\b{DATA}\b.{{0,40}}?{OTHER}"),
        ("others_data", "colleague-health",
         r"\b(?:which|who)\s+(?:of\s+|in\s+)?(?:my|our|the)\s+(?:\w+\s+)?"
         r"(?:colleagues|co-?workers|teammates|team|employees|staff|people|managers|interns|leads|reports|"
         r"direct\s+reports|subordinates|juniors)\s+"
         r"(?:are|is|has|have|had|were|was|got|failed|passed|took|received)\b.{0,40}\b(?:sick|stress|"
         r"burn-?out|"
         r"maternity|medical|background\s+checks?|criminal|drug\s+tests?|"
         r"health|disciplinary|pregnan\w*|disabilit\w*|therapy|rehab|"
         r"warnings?|performance\s+(?:improvement\s+)?plan|performance\s+improvement|pip|fired|terminated|"
         r"laid\s+off)"),
        ("others_data", "colleague-status",
         rf"\b(?:is|are|was|were|has|have)\s+(?:(?:my|our|the|a)\s+(?:\w+\s+){{0,2}}?{PERSON}s?"
         rf"(?:\s+(?-i:[A-Z][a-z]+))?|(?:anyone|anybody|someone|somebody)\s+(?:in|on|from)\s+(?:my|our|"
         rf"the)\s+"
         rf"\w+)\s+(?:pregnant|sick|ill|"
         rf"on\s+(?:sick|medical|maternity|stress)\s+leave|in\s+rehab|in\s+"
         rf"therapy|being\s+fired|getting\s+fired|on\s+a\s+pip|under\s+"
         rf"investigation|disabled|depressed|diagnosed|seeing\s+a\s+therapist)"),
        ("others_data", "what-pay",
         rf"\bwhat\s+(?:salary|pay|bonus|compensation|raise)\s+(?:does|do|did|will)\s+"
         rf"(?:my|our|the)\s+(?:\w+\s+)?{PERSON}s?\s+(?:get|earn|make|receive)"
         rf"|\b(?:what(?:'?s|\s+is)|how\s+much\s+is)\s+(?:my|our|the|a|this|that)\s+(?:\w+\s+)?{PERSON}\s+"
         rf"(?:getting|being)\s+paid\b"),
        ("others_data", "everything-on-someone",
         rf"\b(?:everything|anything|all|what(?:ever)?)\s+(?:hr|the\s+company|they|you|payroll|"
         rf"the\s+system)\s+"
         rf"(?:has|have|holds?|keeps?|knows?|stores?)\s+(?:on|about)\s+(?:him|her|them|(?-i:[A-Z][a-z]+)|"
         rf"(?:my|our|the|a|this|that)\s+(?:\w+\s+)?{PERSON})\b"),
        ("others_data", "where-lives",
         r"\bwhere\s+(?:does|do|did)\s+(?:my|our|the|this|that)\s+(?:\w+\s+)?"
         r"(?:colleague|co-?worker|teammate|manager|boss|ex|friend|employee|"
         r"intern|supervisor|neighbou?r)s?\s+(?:live|stay|reside)"
         rf"|\bwhere\s+(?:the|my|our|a)\s+(?:\w+\s+)?{PERSON}s?\s+(?:lives|stays|"
         rf"resides)\b"),
        ("others_data", "who-earns",
         r"\bhow\s+much\s+(?:does\s+|is\s+|do\s+)?(?:my\s+|our\s+|the\s+)?(?:\w+\s+)?"
         r"(?:colleague|co-?worker|teammate|manager|boss|cfo|ceo|(?-i:[A-Z][a-z]+))s?\s+"
         r"(?:earns?|makes?|gets?\s+paid|is\s+paid|paid)\b|\b" + NAME + r"'s\s+"
         r"(?:personal\s+|private\s+|home\s+)?(?:salary|pay|address|phone|mobile|"
         r"number|diagnosis|medical|health|disciplinary|performance\s+review)"),
        ("others_data", "does-person-have-condition",
         rf"\b(?:does|did|has)\s+(?:(?-i:[A-Z][a-z]+)(?:\s+(?:in|from|on)\s+\w+)?|(?:my|our|the|a|this|that)"
         rf"\s+(?:\w+\s+)?{PERSON})\s+(?:have|has|had|got|suffer\w*\s+from)\s+(?:a\s+|an\s+|any\s+)?"
         rf"(?:\w+\s+)?(?:(?:medical|health|mental\s+health|heart|chronic|psychiatric)\s+(?:conditions?|"
         rf"issues?|problems?)|illness\w*|diseases?|disorders?|disabilit\w*|diagnos[ie]s|criminal\s+record|"
         rf"warnings?|complaints?)\b"),
        ("others_data", "who-got-paid-what",
         r"\b(?:which|who)\b(?:\s+[\w']+){0,5}?\s+(?:got|received|earned|was\s+paid|were\s+paid|made|"
         r"was\s+given|"
         r"were\s+given)\s+(?:the\s+)?(?:biggest\s+|highest\s+|largest\s+|most\s+|lowest\s+|smallest\s+|"
         r"best\s+|"
         r"top\s+|a\s+|any\s+)?(?:bonus(?:es)?|salar(?:y|ies)|pay\s*rises?|raises?|increments?|hikes?|"
         r"(?:written\s+)?warnings?|pips?)\b|\bwho\b(?:\s+[\w']+){0,5}?\s+(?:earns?|makes?|"
         r"gets?\s+paid)\s+the\s+"
         r"(?:most|least)\b"),
        ("others_data", "why-person-treated",
         rf"\b(?:what|why)\s+(?:was|is|were|has|have|did)\s+(?:she|he|they|(?:my|our|the|a|this|that)\s+"
         rf"(?:\w+\s+)?{PERSON}|(?-i:[A-Z][a-z]+))\s+(?:been\s+)?(?:treated|diagnosed|admitted|"
         rf"hospitali[sz]ed|"
         rf"operated|fired|sacked|dismissed|disciplined|warned|investigated|suspended|written\s+up|let\s+go|"
         rf"demoted)"
         rf"(?:\s+(?:for|with|on)\b|\s*\?)"),
        ("others_data", "who-was-disciplined",
         rf"\b(?:who\s+(?:\w+\s+){{0,3}}?|which\s+(?:\w+\s+)?{PERSON}s?\s+)(?:has|have|"
         rf"had)\s+been\s+(?:put\s+on|"
         rf"placed\s+on|fired|sacked|disciplined|warned|investigated|suspended|diagnosed|hospitali[sz]ed|"
         rf"signed\s+off\s+sick|written\s+up)"),
        ("others_data", "why-person-let-go",
         rf"\bwhy\s+(?:she|he|they|(?:my|our|the|a|this|that)\s+(?:\w+\s+)?{PERSON}|(?-i:[A-Z][a-z]+)"
         rf"(?:\s+(?:from|in|on)\s+\w+)?)\s+(?:was|were|got|has\s+been|had\s+been|is\s+being)\s+(?:let\s+go|"
         rf"fired|sacked|dismissed|disciplined|warned|investigated|suspended|hospitali[sz]ed|demoted|"
         rf"put\s+on)"
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
         r"exception))\b|\bmark\s+(?:it|this|that|my\s+\w+|the\s+\w+)\s+as\s+(?:approved|signed(?:\s+off)?|"
         r"authori[sz]ed|paid)\b"),
        ("bypass_control", "make-the-system-accept",
         r"\b(?:get|make|trick|force|convince)\s+(?:the\s+|my\s+)?(?:\w+\s+)?(?:system|tool|portal|app|form|"
         r"software|workflow)\s+(?:to\s+|into\s+)?(?:accept\w*|tak\w+|allow\w*|approv\w+|let\s+me|skip\w*|"
         r"ignor\w+)\b.{0,60}?\b(?:older\s+than|past|after|over|above|beyond|without|more\s+than|despite)\b"),
        ("bypass_control", "self-approval",
         r"\b(?:just|simply|quietly|secretly)\s+(?:approve|sign\s+off|authori[sz]e|okay|"
         r"ok)\s+(?:\w+\s+){0,3}?"
         r"(?:my\s+own|myself)\b|\b(?:approve|sign\s+off|authori[sz]e)\s+(?:my\s+own\s+)?(?:\w+\s+){0,3}?"
         r"myself\b"),
        ("bypass_control", "way-around-it",
         rf"\b{CONTROL}\b.{{0,60}}?\b(?:way|trick|workaround|hack|loophole)s?\s+(?:a?round|past|"
         rf"to\s+(?:get\s+)?"
         rf"(?:a?round|past|avoid|beat|skip))\s+(?:it|that|this|them)\b"),
        ("bypass_control", "stop-reporting",
         r"\b(?:stop|prevent|keep|block)\w*\s+(?:\w+\s+){0,3}?from\s+(?:reporting|sending\s+\w+|"
         r"phoning\s+home|"
         r"syncing|uploading)\s+(?:\w+\s+)?(?:to|back\s+to)\s+(?:it|security|the\s+company|hq|my\s+\w+)\b"),
        ("bypass_control", "hide-activity-from-monitoring",
         r"\b(?:stop|prevent|keep|block|hide|avoid)\w*\s+(?:\w+\s+){0,3}?(?:from\s+)?(?:seeing|tracking|"
         r"monitoring|logging|recording|knowing|watching|checking)\s+(?:what|which|where|when|my|the)\s+"
         r"(?:\w+\s+){0,2}?(?:sites?|websites?|browsing|activity|traffic|screen|keystrokes|usage|downloads?|"
         r"location|apps?|history|searches|i\s+(?:do|visit|browse|download|search|open))\b"),
        ("bypass_control", "split-under-threshold",
         rf"^(?=.*\b(?:two|three|four|five|six|seven|eight|nine|ten|\d+|several|multiple|separate|smaller|"
         rf"individual)\s+(?:[\w'-]+\s+)?"
         rf"(?:invoices|bills|receipts|claims|cards|orders|pos|purchase\s+orders|payments|tickets|"
         rf"transactions|"
         rf"reports|requests|bookings|purchases|meals|expenses|entries|items|lines)\b)(?=.*(?:{THRESHOLD}))"
         rf"|\bso\s+(?:that\s+)?(?:each|it|they|both|every|neither|none|nobody|"
         rf"no\s+one)\b.{{0,40}}?\b(?:stays?|"
         rf"is|are|falls?|remains?|comes?\s+in|keeps?|goes)\s+(?:below|under|within|beneath)\b"),
        ("bypass_control", "skip-the-check",
         r"\bwithout\s+(?:the\s+)?(?:\w+\s+)?(?:dlp|it|security|system|monitoring|filters?|audit\w*|"
         r"antivirus|firewall|"
         r"software|tool|scanner|anyone|anybody)\s+(?:catching|flagging|detecting|noticing|blocking|seeing|"
         r"logging|spotting|picking\s+up)\b|\bget\s+(?:in|inside|into\s+\w+|access)\s+(?:\w+\s+)?(?:anyway|"
         r"regardless|anyhow)\b|"
         r"\bwithout\s+(?:it\s+|them\s+|this\s+)?(?:showing\s+up|appearing|getting\s+flagged|going\s+(?:to|"
         r"through|"
         r"past)|being\s+(?:noticed|logged|recorded|reported|approved|reviewed|"
         r"checked|seen|flagged|audited)|(?:my\s+\w+|anyone|them|finance|hr)\s+(?:approving|reviewing|"
         r"checking|seeing)|(?:the\s+|proper\s+|any\s+)?(?:admin|administrator|root|elevated)\s+(?:rights|"
         r"access|permissions?|privileges))\b"
         r"|\bso\s+(?:that\s+)?(?:it|the\s+\w+|each|they)\s+(?:doesn'?t|does\s+not|won'?t|don'?t|never)\s+"
         r"(?:hit|reach|exceed|go\s+over|cross|trigger)\s+(?:the\s+|an?\s+)?(?:\w+\s+)?(?:limit|threshold|"
         r"cap|"
         r"approval|review|audit)"),
        ("bypass_control", "without-telling-it",
         r"\bwithout\s+(?:telling|asking|informing|notifying|involving|alerting)\s+(?:it|security|anyone|"
         r"anybody|them|the\s+\w+(?:\s+team)?)\b"),
        ("bypass_control", "ask-for-credentials",
         rf"\b(?:give|tell|send|share|show|get)\s+(?:me\s+)?(?:(?:the|an?)\s+)?(?:(?:admin|administrator|"
         rf"root|"
         rf"master|server|system|domain|payroll|finance)\s+|(?:my|the|our)\s+(?:\w+\s+)?{PERSON}'s\s+|"
         rf"(?:his|her|their)\s+)(?:passwords?|credentials|logins?|passcodes?|access\s+codes?)\b"),
        ("bypass_control", "how-to-self-approve",
         r"\bhow\s+(?:to|do\s+i|can\s+i|could\s+i)\s+(?:\w+\s+)?(?:approve|sign\s+off|"
         r"authori[sz]e)\s+(?:\w+\s+)?"
         r"my\s+own\b|\b(?:approve|sign\s+off|authori[sz]e)\s+(?:\w+\s+)?my\s+own\b.{0,40}?\b(?:while|when|"
         r"since|"
         r"as)\s+(?:my\s+)?\w+\s+(?:is|are)\s+(?:away|out|off|on\s+(?:leave|holiday|vacation)|sick)"),
        ("off_topic", "write-content",
         r"^\W*(?:hey\W+|hi\W+|please\s+|ok\W+)?(?:(?:can|could|would|will)\s+(?:you|u)"
         r"\s+)?(?:please\s+)?(?:write|compose|generate|draft|create|make|give|"
         r"tell|code|produce|come\s+up\s+with|help\s+me\s+(?:write|with))\s+"
         r"(?:me\s+|us\s+)?(?:a\s+|an\s+|some\s+|another\s+|one\s+)?(?:[\w'-]+\s+){0,3}?"
         r"(?:poem|essay|story|song|joke|haiku|limerick|rap|riddle|novel|"
         r"screenplay|code|script|program|function|class|query|regex|"
         r"sql|python|javascript|java|bash|html|css|app|website|homework|meme|gif|cartoon|drawing|wallpaper|"
         r"assignment|tweet|speech|toast|recipe|fan\s*fiction|cover\s+letter|resume|cv|post|blog|caption|"
         r"slogan|tagline|bio)s?\b"),
        ("off_topic", "chit-chat",
         r"\btell\s+me\s+(?:a\s+|another\s+|some\s+)?(?:joke|riddle|fun\s+fact|"
         r"story)s?\b|\b(?:debug|fix|refactor|review|optimi[sz]e)\s+(?:my|this|the)\s+"
         r"(?:code|script|function|program|query|sql|regex|python)\b|\bwhat'?s\s+the\s+"
         r"(?:weather|score|capital\s+of|meaning\s+of\s+life)\b|\bwho\s+won\s+the\b|\bwho(?:'s|\s+is|"
         r"\s+will)\s+(?:going\s+to\s+|gonna\s+)?win\b"
         r"|\b(?:solve|calculate)\s+(?:this|my)\s+(?:equation|math|homework|integral)\b"
         r"|\btranslate\s+(?:this|the\s+following|my|our|a)\s+(?:\w+\s+)?(?:song|poem|text|paragraph|"
         r"speech|essay|"
         r"story|lyrics|toast|"
         r"message)\b"),
        ("off_topic", "leisure-ideas",
         r"\b(?:give\s+me|come\s+up\s+with|suggest|brainstorm|list|need)\s+(?:\w+\s+){0,2}?(?:ideas?|names?|"
         r"suggestions?)\s+for\s+(?:a\s+|an\s+|the\s+|our\s+|my\s+)?(?:\w+\s+){0,2}?(?:name|party|gift|quiz|"
         r"game|costume|theme|slogan|pet|baby|band)s?\b"),
        ("off_topic", "entertain-me",
         r"\bi'?m\s+bored\b|\bim\s+bored\b|\bentertain\s+me\b|\bmake\s+me\s+laugh\b|"
         r"\btell\s+me\s+(?:something|"
         r"anything)\s+(?:funny|fun|interesting|random|cool)\b|\b(?:summari[sz]e|recap|explain)\s+(?:the\s+)?"
         r"(?:plot|storyline|ending)\s+of\b|\bwhat(?:'?s|\s+is)\s+\d+(?:\s*/\s*\d+)?\s*(?:plus|minus|times|"
         r"divided\s+by|multiplied\s+by|[-+*x])\s*\d"),
        ("off_topic", "plans-and-picks",
         r"\b(?:plan|create|make|build|suggest|design|give\s+me)\s+(?:me\s+)?(?:a\s+|an\s+|"
         r"my\s+)?(?:[\w-]+\s+){0,2}?"
         r"(?:itinerary|workout|diet|meal\s+plan|playlist)\b|\b(?:good|best|fun)\s+(?:movie|film|book|show|"
         r"series|song|restaurant|game)s?\s+(?:to\s+(?:watch|read|play|listen)|for\s+(?:tonight|"
         r"the\s+weekend))"
         r"|\brecommend\s+(?:me\s+)?(?:a\s+|some\s+)?(?:movie|film|book|show|series|song|restaurant|"
         r"game)s?\b"),
        ("off_topic", "personal-chores",
         r"\b(?:do|file|prepare|complete|finish)\s+my\s+(?:tax\s+returns?|taxes|homework|assignment|essay|"
         r"coursework|thesis)\b|\b(?:what'?s|what\s+is|who'?s|who\s+is)\s+(?:your|ur)\s+(?:favou?rite|fave)\b"
         r"|\b(?:write|compose|draft)\s+(?:me\s+)?(?:a\s+|an\s+)?(?:[\w'-]+\s+){0,2}?(?:e-?mail|note|card|"
         r"message|letter|text)\s+(?:to|for)\s+(?:my\s+)?(?:neighbou?r|friend|wife|husband|girlfriend|"
         r"boyfriend|partner|mum|mom|mother|dad|father|family|landlord|son|daughter|kid|teacher|grandma|"
         r"grandmother|grandpa|aunt|uncle|cousin)\b"),
        ("off_topic", "cooking-and-eli5",
         r"\bhow\s+(?:do\s+(?:i|you)|to|can\s+i)\s+(?:bake|cook|brew)\b|\b(?:make|bake|cook)\s+(?:a\s+|"
         r"some\s+)?"
         r"(?:sourdough|bread|cake|pizza|pasta|curry|cookies|biryani|soup|cocktails?)\b|"
         r"\blike\s+i'?m\s+(?:five|"
         r"5|a\s+(?:kid|child))\b|\beli5\b"),
    ))
"""(category, rule name, pattern) for ``others_data``, ``bypass_control`` and ``off_topic``."""
