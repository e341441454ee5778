#version 0110
