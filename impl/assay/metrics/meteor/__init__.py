"""metrics/meteor"""
