#
#version 130
