"""Words for what people see, with no Discord in them: boards, refusals and hints, records, review, help."""
