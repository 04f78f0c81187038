"""The Discord layer: views (components), presenting answers as replies, the responder, edits, history."""
