"""metrics/ter"""
