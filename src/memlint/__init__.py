"""memlint: a linter and safe fixer for AI-agent memory stores."""

__version__ = "0.1.0"
