#version 330 es
