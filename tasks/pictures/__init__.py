"""Pictures: boards, answers and explanations drawn as SVG (and HTML pages of them)."""
