"""Tests of azul_rules: testing."""
