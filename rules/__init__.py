"""The federation's rules as plain Python: no Django, no database, plain values in and out.

Everything here is a pure function of its arguments, tested on its own (tests/rules). The Django apps read the
stored facts, call these rules and write what they return; nothing in this package imports from them.
"""
