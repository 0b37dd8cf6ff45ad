-- 0003_scrub_secrets.sql: passwords and codes never stay in the transcript
-- (issue 13). Earlier versions stored the browser workspace's number commands
-- as typed, so "type 4 hunter2" kept the password, and goals such as "sign in
-- with the password X" kept it too. From now on typed text is never stored
-- (the app logs "type 4 (typed text not kept)") and a goal's stated password
-- is hidden; this migration scrubs the rows written before.
--
-- Content is a JSON string. A type command keeps its verb and number only.
UPDATE transcript
SET content = json_quote(
        substr(json_extract(content, '$'), 1, instr(json_extract(content, '$'), ' ') - 1) || ' ' ||
        substr(ltrim(substr(json_extract(content, '$'), instr(json_extract(content, '$'), ' ') + 1)), 1,
               instr(ltrim(substr(json_extract(content, '$'), instr(json_extract(content, '$'), ' ') + 1)) || ' ', ' ') - 1) ||
        ' (typed text not kept)')
WHERE role = 'command'
  AND session_id IN (SELECT id FROM sessions WHERE kind = 'browser')
  AND json_valid(content) AND json_type(content) = 'text'
  AND instr(json_extract(content, '$'), ' ') > 0
  AND (lower(substr(json_extract(content, '$'), 1, instr(json_extract(content, '$'), ' ') - 1)) IN ('type', 'write', 'enter')
       OR substr(json_extract(content, '$'), 1, instr(json_extract(content, '$'), ' ') - 1) IN
          ('введи', 'Введи', 'ВВЕДИ', 'напиши', 'Напиши', 'НАПИШИ', 'впиши', 'Впиши', 'ВПИШИ'));

-- Any other line of a browser session that names a password, passcode, PIN or
-- code (a goal, a progress line, a result) is replaced as a whole: which part
-- was the secret cannot be told for sure after the fact.
UPDATE transcript
SET content = json_quote('(removed: this line named a password or code)')
WHERE session_id IN (SELECT id FROM sessions WHERE kind = 'browser')
  AND role <> 'answer'
  AND (lower(content) LIKE '%password%' OR lower(content) LIKE '%passcode%' OR lower(content) LIKE '%pin %'
       OR lower(content) LIKE '%pin:%' OR lower(content) LIKE '%one-time%' OR lower(content) LIKE '%one time code%'
       OR content LIKE '%парол%' OR content LIKE '%Парол%' OR content LIKE '%ПАРОЛ%'
       OR content LIKE '%код%' OR content LIKE '%Код%' OR content LIKE '%КОД%'
       OR content LIKE '%пин%' OR content LIKE '%Пин%' OR content LIKE '%ПИН%');
