"""Measuring strategies: exact best response and exploitability, local best response (LBR), and charts."""
