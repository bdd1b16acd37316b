"""memlint: a linter and safe fixer for AI-agent memory stores."""

__version__ = "0.1.0"

# The repository's address: rule documentation links (SARIF ``helpUri``, JSON ``url``)
# and SARIF ``informationUri`` are built from it. Change it here when the repository moves.
REPOSITORY_URL = "https://github.com/OWNER/memlint"
