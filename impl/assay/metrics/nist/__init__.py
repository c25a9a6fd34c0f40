"""metrics/nist"""
