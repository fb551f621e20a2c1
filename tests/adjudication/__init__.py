"""Tests of azul_rules: adjudication."""
